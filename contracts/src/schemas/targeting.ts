import { z } from 'zod';
import {
  DEFAULT_RADIUS,
  DEFAULT_TARGETING_TEMPLATE,
  FORBIDDEN_TARGETING_KEYS,
  HOUSING_TARGETING_REJECTED,
  RADIUS_OPTIONS,
  TARGETING_TEMPLATE_IDS,
  isRadiusOption,
} from '../targeting.js';
import { LIMITS, requiredText } from './common.js';

export const RADIUS_MESSAGE = `Radius must be one of ${RADIUS_OPTIONS.slice(0, -1).join(', ')} or ${
  RADIUS_OPTIONS[RADIUS_OPTIONS.length - 1]
} miles`;
export const TARGETING_TEMPLATE_MESSAGE = 'Please select a targeting template';
export const UNKNOWN_FIELD_MESSAGE = 'Unknown field';
export const MAX_TARGETING_INTERESTS = 25;

/**
 * Error for strict objects: demographic/ZIP keys get the housing message, other extra keys
 * "Unknown field" (fieldErrors reports each under its own path).
 */
function strictError(iss: { code?: string; keys?: string[] }): string | undefined {
  if (iss.code !== 'unrecognized_keys') return undefined;
  return (iss.keys ?? []).some((k) => FORBIDDEN_TARGETING_KEYS.includes(k))
    ? HOUSING_TARGETING_REJECTED
    : UNKNOWN_FIELD_MESSAGE;
}

export const radiusSchema = z
  .number({ error: RADIUS_MESSAGE })
  .refine(isRadiusOption, { error: RADIUS_MESSAGE });

export const targetingTemplateSchema = z.enum(TARGETING_TEMPLATE_IDS, { error: TARGETING_TEMPLATE_MESSAGE });

/** { city, state, radius }, strict: no zip/postal code, no other keys. radius defaults to 25. */
export const targetingLocationSchema = z.strictObject(
  {
    city: requiredText('City is required', LIMITS.city),
    state: requiredText('State is required', LIMITS.state),
    radius: radiusSchema.default(DEFAULT_RADIUS),
  },
  { error: strictError },
);
export type TargetingLocation = z.infer<typeof targetingLocationSchema>;

export const targetingInterestSchema = z.strictObject(
  {
    id: requiredText('Interest id is required', 100),
    name: requiredText('Interest name is required', 100),
    enabled: z.boolean({ error: 'enabled must be true or false' }),
  },
  { error: strictError },
);
export type TargetingInterestValue = z.infer<typeof targetingInterestSchema>;

/** Targeting fields of the campaign draft. Strict: age, gender, ZIP and any other key are rejected. */
export const targetingDraftShape = {
  targetingLocation: targetingLocationSchema,
  targetingInterests: z
    .array(targetingInterestSchema)
    .max(MAX_TARGETING_INTERESTS, { error: `At most ${MAX_TARGETING_INTERESTS} interests` })
    .default([]),
  targetingTemplate: targetingTemplateSchema.default(DEFAULT_TARGETING_TEMPLATE),
};

export const targetingDraftSchema = z.strictObject(targetingDraftShape, { error: strictError });
export type TargetingDraft = z.infer<typeof targetingDraftSchema>;
export type TargetingDraftInput = z.input<typeof targetingDraftSchema>;

/**
 * POST /api/targeting/preview: { city, state, listingPrice } → { interests, estimatedReach }.
 * listingPrice is the listing's price, which is a decimal string on the wire; numbers are accepted too.
 */
export const targetingPreviewSchema = z.strictObject(
  {
    city: requiredText('City is required', LIMITS.city),
    state: requiredText('State is required', LIMITS.state),
    listingPrice: z
      .union([z.number(), z.string().trim().regex(/^\d+(?:\.\d+)?$/, { error: 'Listing price must be a number' })], {
        error: 'Listing price must be a number',
      })
      .transform((v) => Number(v))
      .pipe(
        z
          .number()
          .nonnegative({ error: 'Listing price must be a number' })
          .max(99_999_999.99, { error: 'Listing price is too large' }),
      ),
    /** Step 5's radius; the default (25 miles) when absent. */
    radius: radiusSchema.optional(),
  },
  { error: strictError },
);
export type TargetingPreviewRequest = z.infer<typeof targetingPreviewSchema>;
export type TargetingPreviewInput = z.input<typeof targetingPreviewSchema>;


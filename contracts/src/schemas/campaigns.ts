import { z } from 'zod';
import {
  AD_FORMATS,
  CAROUSEL_MAX,
  CAROUSEL_MAX_MESSAGE,
  CAROUSEL_MIN,
  CAROUSEL_MIN_MESSAGE,
  DEFAULT_AD_FORMAT,
  DEFAULT_CALL_TO_ACTION,
  DEFAULT_TARGET_AUDIENCE,
  isAdCopyPlaceholder,
} from '../ad-defaults.js';
import { BUDGET_GRID_MESSAGE, isBudgetOnGrid } from '../pricing.js';
import { FORBIDDEN_TARGETING_KEYS, HOUSING_TARGETING_REJECTED } from '../targeting.js';
import { LIMITS, idParam, imageRefSchema, isHttpUrl, optionalImageRefSchema, tooLongMessage } from './common.js';
import { templateTypeSchema } from './ad-copy.js';
import { targetingInterestSchema, targetingLocationSchema, targetingTemplateSchema, MAX_TARGETING_INTERESTS } from './targeting.js';

export const CAMPAIGN_MESSAGES = {
  adFormat: 'Ad format must be single or carousel',
  headline: 'Headline is required',
  description: 'Ad text is required',
  budget: BUDGET_GRID_MESSAGE,
  link: 'Link must be a valid http or https URL',
  status: 'A new campaign can only be a draft',
  adCopyPending: 'Please wait for the ad copy to finish generating, or write your own',
  carouselMin: CAROUSEL_MIN_MESSAGE,
  carouselMax: CAROUSEL_MAX_MESSAGE,
} as const;

export const adFormatSchema = z.enum(AD_FORMATS, { error: CAMPAIGN_MESSAGES.adFormat });

/** A carousel's images: 2 to 10 image references. */
export const carouselImagesSchema = z
  .array(imageRefSchema, { error: CAROUSEL_MIN_MESSAGE })
  .min(CAROUSEL_MIN, { error: CAROUSEL_MIN_MESSAGE })
  .max(CAROUSEL_MAX, { error: CAROUSEL_MAX_MESSAGE });

/**
 * The budget: the spec's wire format is a string ("399"), a number is accepted too.
 * Output is the whole-dollar number, on the 99…999 grid.
 */
export const budgetSchema = z
  .union([z.number(), z.string().trim().regex(/^\d{1,6}(?:\.0{1,2})?$/, { error: BUDGET_GRID_MESSAGE })], {
    error: BUDGET_GRID_MESSAGE,
  })
  .transform((v) => Number(v))
  .refine(isBudgetOnGrid, { error: BUDGET_GRID_MESSAGE });

const IMPRESSIONS_MESSAGE = 'Impressions must be a whole number';

/** Accepted for compatibility with the spec's payloads, never trusted: the server recomputes it. */
const ignoredCount = z
  .union(
    [
      z.number().int({ error: IMPRESSIONS_MESSAGE }).nonnegative({ error: IMPRESSIONS_MESSAGE }),
      z.string().trim().regex(/^\d{1,9}$/, { error: IMPRESSIONS_MESSAGE }),
    ],
    { error: IMPRESSIONS_MESSAGE },
  )
  .optional();

const optionalCopy = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: tooLongMessage(max) })
    .nullish()
    .transform((v) => v ?? '');

/**
 * POST /api/campaigns: the wizard's campaign (step 5) and the pricing step's draft (step 6).
 * - price is the budget (see budgetSchema); impressions and impressionsRequested are accepted and
 *   dropped from the output: the server derives impressions from the budget.
 * - carouselImages: at most 10; with adFormat carousel, 2 to 10.
 * - link: absolute http(s) URL only; "" or absent means "the listing page" (server's choice).
 * - headline and description (the ad text) are required: no ad goes out without both, and the
 *   description is never one of the wizard's ad-copy placeholders (an error text is not ad copy).
 * - targeting fields are optional here, and strict (no age, gender or ZIP).
 */
const campaignDraftShape = {
    agentId: idParam,
    listingId: idParam,
    templateType: templateTypeSchema,
    adFormat: adFormatSchema.default(DEFAULT_AD_FORMAT),
    headline: z
      .string({ error: CAMPAIGN_MESSAGES.headline })
      .trim()
      .min(1, { error: CAMPAIGN_MESSAGES.headline })
      .max(LIMITS.headline, { error: tooLongMessage(LIMITS.headline) }),
    description: z
      .string({ error: CAMPAIGN_MESSAGES.description })
      .trim()
      .min(1, { error: CAMPAIGN_MESSAGES.description })
      .max(LIMITS.description, { error: tooLongMessage(LIMITS.description) })
      .refine((v) => !isAdCopyPlaceholder(v), { error: CAMPAIGN_MESSAGES.adCopyPending }),
    subtitle: optionalCopy(LIMITS.subtitle),
    callToAction: optionalCopy(LIMITS.callToAction).transform((v) => v || DEFAULT_CALL_TO_ACTION),
    targetAudience: optionalCopy(LIMITS.targetAudience).transform((v) => v || DEFAULT_TARGET_AUDIENCE),
    price: budgetSchema,
    impressions: ignoredCount,
    impressionsRequested: ignoredCount,
    status: z.literal('draft', { error: CAMPAIGN_MESSAGES.status }).optional(),
    imageUrl: optionalImageRefSchema.transform((v) => v ?? null),
    carouselImages: z
      .array(imageRefSchema, { error: CAROUSEL_MIN_MESSAGE })
      .max(CAROUSEL_MAX, { error: CAROUSEL_MAX_MESSAGE })
      .nullish()
      .transform((v) => v ?? []),
    link: z
      .string({ error: CAMPAIGN_MESSAGES.link })
      .trim()
      .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
      .refine((v) => v === '' || isHttpUrl(v), { error: CAMPAIGN_MESSAGES.link })
      .nullish()
      .transform((v) => (v ? v : null)),
    targetingLocation: targetingLocationSchema.optional(),
    targetingInterests: z
      .array(targetingInterestSchema)
      .max(MAX_TARGETING_INTERESTS, { error: `At most ${MAX_TARGETING_INTERESTS} interests` })
      .optional(),
    targetingTemplate: targetingTemplateSchema.optional(),
};

type CampaignDraftOutput = Omit<z.output<z.ZodObject<typeof campaignDraftShape>>, 'impressions' | 'impressionsRequested'>;

/**
 * Unknown top-level keys are dropped, except the housing-forbidden ones (age, gender, ZIP, exclusions):
 * those are refused, at the top level as inside the targeting objects.
 */
export const campaignDraftSchema = z
  .looseObject(campaignDraftShape)
  .superRefine((v, ctx) => {
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_TARGETING_KEYS.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: HOUSING_TARGETING_REJECTED });
    }
    if (v.adFormat === 'carousel' && v.carouselImages.length < CAROUSEL_MIN) {
      ctx.addIssue({ code: 'custom', path: ['carouselImages'], message: CAROUSEL_MIN_MESSAGE });
    }
  })
  .transform((v): CampaignDraftOutput => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(campaignDraftShape)) {
      if (key !== 'impressions' && key !== 'impressionsRequested' && key in v) out[key] = (v as Record<string, unknown>)[key];
    }
    return out as CampaignDraftOutput;
  });
export type CampaignDraftPayload = z.infer<typeof campaignDraftSchema>;
export type CampaignDraftInput = z.input<typeof campaignDraftSchema>;

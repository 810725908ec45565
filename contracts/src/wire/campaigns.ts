import { z } from 'zod';
import { AD_FORMATS, TEMPLATE_TYPES } from '../ad-defaults.js';
import { RADIUS_OPTIONS, TARGETING_TEMPLATE_IDS } from '../targeting.js';
import { CAMPAIGN_STATUSES } from '../campaign-statuses.js';
import { isoDateTimeSchema } from './common.js';

export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES);

const interestSchema = z.object({ id: z.string(), name: z.string(), enabled: z.boolean() });

/**
 * A campaign on the wire, for its owner (spec 000 §3 field names). `impressions` and
 * `impressionsRequested` are the same server-computed number; `price` is the budget as a string ("299").
 */
export const campaignViewSchema = z.object({
  id: z.number().int().positive(),
  agentId: z.number().int().positive(),
  listingId: z.number().int().positive(),
  templateType: z.enum(TEMPLATE_TYPES),
  adFormat: z.enum(AD_FORMATS),
  headline: z.string().nullable(),
  description: z.string().nullable(),
  subtitle: z.string().nullable(),
  callToAction: z.string().nullable(),
  targetAudience: z.string().nullable(),
  impressions: z.number().int().nonnegative(),
  impressionsRequested: z.number().int().nonnegative(),
  price: z.string(),
  status: campaignStatusSchema,
  imageUrl: z.string().nullable(),
  carouselImages: z.array(z.string()),
  link: z.string().nullable(),
  targetingLocation: z
    .object({ city: z.string(), state: z.string(), radius: z.union(RADIUS_OPTIONS.map((r) => z.literal(r))) })
    .nullable(),
  targetingInterests: z.array(interestSchema),
  targetingTemplate: z.enum(TARGETING_TEMPLATE_IDS).nullable(),
  facebookCampaignId: z.string().nullable(),
  /** The public listing page is /listing/{mlsId} (spec 001): the success screen links to it. */
  listingMlsId: z.string().nullable(),
  /** Why the launch failed (launch_failed), or the last transient problem while it retries (launching); null otherwise. */
  launchError: z.string().nullable(),
  createdAt: isoDateTimeSchema,
});
export type CampaignView = z.infer<typeof campaignViewSchema>;

/** POST /api/listings/:id/optimize-ad-copy. */
export const adCopyResponseSchema = z.object({ optimizedCopy: z.string() });
export type AdCopyResponse = z.infer<typeof adCopyResponseSchema>;

/** POST /api/ad-copy/check: the Fair Housing findings in a text (empty when it is clean). */
export const adCopyCheckResponseSchema = z.object({
  findings: z.array(
    z.object({
      /** The words as they appear in the text. */
      phrase: z.string(),
      protectedClass: z.string(),
      reason: z.string(),
      suggestion: z.string(),
    }),
  ),
});
export type AdCopyCheckResponse = z.infer<typeof adCopyCheckResponseSchema>;

/** POST /api/targeting/preview. */
export const targetingPreviewResponseSchema = z.object({
  interests: z.array(interestSchema),
  /** Estimated number of people in the targeted area and interests. */
  estimatedReach: z.number().int().nonnegative(),
});
export type TargetingPreviewResponse = z.infer<typeof targetingPreviewResponseSchema>;

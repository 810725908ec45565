import { z } from 'zod';
import { AD_FORMATS, TEMPLATE_TYPES } from '../ad-defaults.js';
import { campaignStatusSchema } from './campaigns.js';
import { isoDateTimeSchema } from './common.js';
import { agentCampaignListingSchema } from './listings.js';

/**
 * The agent dashboard's reads (spec 001 §2 Dashboard, §3 Campaign and Facebook metrics, §7):
 * GET /api/agents/{id}/campaigns and GET /api/agents/{id}/facebook-metrics.
 */

/** One of the agent's campaigns, newest first, with its delivery as last synced from the ad platform. */
export const agentCampaignSchema = z.object({
  id: z.number().int().positive(),
  listingId: z.number().int().positive(),
  status: campaignStatusSchema,
  templateType: z.enum(TEMPLATE_TYPES),
  adFormat: z.enum(AD_FORMATS),
  headline: z.string().nullable(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** The budget as a string ("299"). */
  price: z.string(),
  impressionsRequested: z.number().int().nonnegative(),
  impressionsDelivered: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
  reach: z.number().int().nonnegative(),
  startsAt: isoDateTimeSchema.nullable(),
  endsAt: isoDateTimeSchema.nullable(),
  metricsUpdatedAt: isoDateTimeSchema.nullable(),
  createdAt: isoDateTimeSchema,
  listing: agentCampaignListingSchema.nullable(),
});
export type AgentCampaign = z.infer<typeof agentCampaignSchema>;
export const agentCampaignsSchema = z.array(agentCampaignSchema);

/** One day of one campaign's delivery (UTC day): the impressions and clicks delivered that day. */
export const dailyDeliverySchema = z.object({
  campaignId: z.number().int().positive(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  impressions: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
});
export type DailyDelivery = z.infer<typeof dailyDeliverySchema>;
/** GET /api/agents/{id}/facebook-metrics/daily: per campaign, oldest day first, the last 90 days (the chart's data). */
export const dailyDeliveryListSchema = z.array(dailyDeliverySchema);

/**
 * Facebook metrics for an agent (spec §3), summed over the agent's paid campaigns. `impressionGoal` is the
 * impressions ordered (50000 only when nothing is ordered). `engagements` is null when the ad platform does
 * not report them: the dashboard then shows the spec's estimate (round(clicks × 1.2)), labelled as one.
 */
export const facebookMetricsSchema = z.object({
  totalImpressions: z.number().int().nonnegative(),
  impressionGoal: z.number().int().positive(),
  totalClicks: z.number().int().nonnegative(),
  reach: z.number().int().nonnegative(),
  engagements: z.number().int().nonnegative().nullable(),
  /** When the delivery was last read from the ad platform; null before the first sync. */
  updatedAt: isoDateTimeSchema.nullable(),
});
export type FacebookMetrics = z.infer<typeof facebookMetricsSchema>;

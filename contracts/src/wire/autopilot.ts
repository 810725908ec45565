import { z } from 'zod';
import { AD_FORMATS } from '../ad-defaults.js';
import { AUTOPILOT_LINK_ACTIONS, AUTOPILOT_RUN_KINDS, AUTOPILOT_RUN_STATUSES } from '../autopilot.js';
import { campaignStatusSchema, campaignViewSchema } from './campaigns.js';
import { agentViewSchema } from './agents.js';
import { listingViewSchema } from './listings.js';
import { isoDateTimeSchema } from './common.js';
import { savedCardSchema } from './payments.js';

export const autopilotSettingsSchema = z.object({
  enabled: z.boolean(),
  triggers: z.object({ justListed: z.boolean(), justSold: z.boolean(), priceImproved: z.boolean() }),
  budget: z.number().int(),
  adFormat: z.enum(AD_FORMATS),
  vetoWindowHours: z.number().int(),
  pauseOnPending: z.boolean(),
});

/** One thing autopilot did (or will do) about one listing change. */
export const autopilotRunSchema = z.object({
  id: z.number().int().positive(),
  kind: z.enum(AUTOPILOT_RUN_KINDS),
  status: z.enum(AUTOPILOT_RUN_STATUSES),
  listingKey: z.string(),
  listingAddress: z.string().nullable(),
  headline: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** The budget as the wire writes money ("299"), for a draft. */
  price: z.string().nullable(),
  campaignId: z.number().int().positive().nullable(),
  campaignStatus: campaignStatusSchema.nullable(),
  detectedAt: isoDateTimeSchema,
  launchAt: isoDateTimeSchema.nullable(),
  expiresAt: isoDateTimeSchema.nullable(),
  /** Why it ended as it did (skipped, failed, paused…), in words. */
  reason: z.string().nullable(),
  updatedAt: isoDateTimeSchema,
});
export type AutopilotRunView = z.infer<typeof autopilotRunSchema>;

/** GET (and the answer of PUT) /api/agents/:id/autopilot. */
export const autopilotViewSchema = z.object({
  settings: autopilotSettingsSchema,
  /** Autopilot needs the agent's MLS identity (its listings are matched by MLS ID). */
  mlsLinked: z.boolean(),
  card: savedCardSchema.nullable(),
  scheduled: z.array(autopilotRunSchema),
  history: z.array(autopilotRunSchema),
});
export type AutopilotView = z.infer<typeof autopilotViewSchema>;

/** GET /api/autopilot/links/:token: what the emailed link does, before the agent confirms it. */
export const autopilotLinkViewSchema = z.object({
  action: z.enum(AUTOPILOT_LINK_ACTIONS),
  /** false: the link cannot be used (used, expired, or the run moved on); `message` says why. */
  usable: z.boolean(),
  message: z.string().nullable(),
  run: autopilotRunSchema.nullable(),
});
export type AutopilotLinkView = z.infer<typeof autopilotLinkViewSchema>;

/** POST /api/autopilot/links/:token: what happened, and where to go next (Edit: the wizard; card: the card page). */
export const autopilotLinkResultSchema = z.object({
  action: z.enum(AUTOPILOT_LINK_ACTIONS),
  message: z.string(),
  redirect: z.string().nullable(),
  run: autopilotRunSchema,
});
export type AutopilotLinkResult = z.infer<typeof autopilotLinkResultSchema>;

/** One agent's autopilot in the admin list. */
export const adminAutopilotStateSchema = z.object({
  enabled: z.boolean(),
  hasCard: z.boolean(),
  scheduled: z.number().int().nonnegative(),
  launched: z.number().int().nonnegative(),
  lastRunAt: isoDateTimeSchema.nullable(),
});
export type AdminAutopilotState = z.infer<typeof adminAutopilotStateSchema>;

/** GET /api/campaigns/:id/wizard: a draft reopened in the wizard (autopilot's Edit link) with its agent and listing. */
export const campaignWizardSchema = z.object({
  agent: agentViewSchema,
  listing: listingViewSchema,
  campaign: campaignViewSchema,
});
export type CampaignWizard = z.infer<typeof campaignWizardSchema>;

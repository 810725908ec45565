import { z } from 'zod';
import { adminAutopilotStateSchema } from './autopilot.js';

/** The admin panel's answers (spec §2 Admin, §3): agent rows and totals, campaign metrics, failed work. */

/** A campaign inside an admin agent row (goal = impressionsRequested; delivered from the stored metrics). */
export const adminCampaignSchema = z.object({
  id: z.number(),
  status: z.string(),
  headline: z.string().nullable(),
  mlsListingId: z.string().nullable(),
  impressionsRequested: z.number(),
  impressionsDelivered: z.number(),
  clicks: z.number(),
  createdAt: z.string(),
});
export type AdminCampaign = z.infer<typeof adminCampaignSchema>;

/** Spec §3 Admin agent row: id, name, email, createdAt, campaigns[], totalCampaigns, activeCampaigns, totalSpent (USD). */
export const adminAgentRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  createdAt: z.string(),
  campaigns: z.array(adminCampaignSchema),
  totalCampaigns: z.number(),
  activeCampaigns: z.number(),
  totalSpent: z.number(),
  /** The agent's autopilot (DESIGN §7): on or off, a saved card, drafts ahead, ads launched. */
  autopilot: adminAutopilotStateSchema,
});
export type AdminAgentRow = z.infer<typeof adminAgentRowSchema>;

/**
 * Totals over the filtered set (spec §2): agents, campaigns, active campaigns, revenue (USD): what was paid net of
 * credits for under-delivery (refunds made and account credit outstanding), and those credits (USD).
 */
export const adminTotalsSchema = z.object({
  agents: z.number(),
  campaigns: z.number(),
  activeCampaigns: z.number(),
  revenue: z.number(),
  credits: z.number(),
});
export type AdminTotals = z.infer<typeof adminTotalsSchema>;

export const adminAgentsPageSchema = z.object({
  agents: z.array(adminAgentRowSchema),
  totals: adminTotalsSchema,
  page: z.number(),
  pageSize: z.number(),
  /** Agents in the filtered set (= totals.agents); pages = ceil(total / pageSize). */
  total: z.number(),
});
export type AdminAgentsPage = z.infer<typeof adminAgentsPageSchema>;

/** Spec §3 Admin metrics per campaign. */
export const adminCampaignMetricsSchema = z.object({ campaignId: z.number(), impressions: z.number(), clicks: z.number() });
export type AdminCampaignMetrics = z.infer<typeof adminCampaignMetricsSchema>;

/** Failed work (admin panel and ops CLI): failed launches and failed or dead-lettered jobs of any queue. */
export const adminFailedLaunchSchema = z.object({
  campaignId: z.number(),
  agentId: z.number(),
  headline: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number(),
  failedAt: z.string(),
});
export type AdminFailedLaunch = z.infer<typeof adminFailedLaunchSchema>;

export const adminFailedJobSchema = z.object({
  id: z.string(),
  queue: z.string(),
  /** For a dead-letter copy, the queue it failed in (Retry puts it back there). */
  sourceQueue: z.string().nullable(),
  retryCount: z.number(),
  error: z.string().nullable(),
  at: z.string(),
});
export type AdminFailedJob = z.infer<typeof adminFailedJobSchema>;

export const adminFailedWorkSchema = z.object({
  launches: z.array(adminFailedLaunchSchema),
  jobs: z.array(adminFailedJobSchema),
});
export type AdminFailedWork = z.infer<typeof adminFailedWorkSchema>;

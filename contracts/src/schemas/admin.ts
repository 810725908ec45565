import { z } from 'zod';
import { idParam } from './common.js';

/** Admin filters (spec §2 Admin): status, campaigns, search by name or email, created within. */
export const ADMIN_STATUS_FILTERS = ['all', 'active', 'inactive'] as const;
export const ADMIN_CAMPAIGN_FILTERS = ['all', 'with', 'none'] as const;
export const ADMIN_CREATED_FILTERS = ['all', 'today', '7d', '30d', '90d'] as const;
export const ADMIN_SORTS = ['createdAt', 'name', 'totalSpent', 'totalCampaigns'] as const;
export const ADMIN_PAGE_SIZE_MAX = 100;
export const ADMIN_PAGE_SIZE_DEFAULT = 25;
export const ADMIN_SEARCH_MAX = 100;

/** GET /api/admin/agents query string. */
export const adminAgentsQuerySchema = z.object({
  status: z.enum(ADMIN_STATUS_FILTERS, { error: 'Status must be all, active or inactive' }).default('all'),
  campaigns: z.enum(ADMIN_CAMPAIGN_FILTERS, { error: 'Campaigns must be all, with or none' }).default('all'),
  created: z.enum(ADMIN_CREATED_FILTERS, { error: 'Created must be all, today, 7d, 30d or 90d' }).default('all'),
  search: z.string().trim().max(ADMIN_SEARCH_MAX, { error: `Search must be at most ${ADMIN_SEARCH_MAX} characters` }).default(''),
  sort: z.enum(ADMIN_SORTS, { error: 'Sort must be createdAt, name, totalSpent or totalCampaigns' }).default('createdAt'),
  order: z.enum(['asc', 'desc'], { error: 'Order must be asc or desc' }).default('desc'),
  page: z.coerce.number({ error: 'Page must be a positive whole number' }).int().min(1, { error: 'Page must be a positive whole number' }).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: `Page size must be 1 to ${ADMIN_PAGE_SIZE_MAX}` })
    .int()
    .min(1, { error: `Page size must be 1 to ${ADMIN_PAGE_SIZE_MAX}` })
    .max(ADMIN_PAGE_SIZE_MAX, { error: `Page size must be 1 to ${ADMIN_PAGE_SIZE_MAX}` })
    .default(ADMIN_PAGE_SIZE_DEFAULT),
});
export type AdminAgentsQuery = z.infer<typeof adminAgentsQuerySchema>;
export type AdminAgentsQueryInput = z.input<typeof adminAgentsQuerySchema>;

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

/** GET /api/admin/facebook-metrics?campaignIds=1,2,3 (at most 500; without it, the newest 500 launched campaigns). */
export const ADMIN_METRICS_MAX = 500;
export const adminMetricsQuerySchema = z.object({
  campaignIds: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      const ids = s.split(',').map((x) => Number(x.trim()));
      if (ids.length > ADMIN_METRICS_MAX || ids.some((n) => !Number.isInteger(n) || n < 1 || n > 2_147_483_647)) {
        ctx.addIssue({ code: 'custom', message: `campaignIds must be up to ${ADMIN_METRICS_MAX} comma-separated ids` });
        return z.NEVER;
      }
      return ids;
    }),
});

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

export const adminRetryJobSchema = z.object({
  queue: z.string().trim().min(1, { error: 'Queue is required' }).max(200),
  id: z.uuid({ error: 'Job id must be a UUID' }),
});
export type AdminRetryJobPayload = z.infer<typeof adminRetryJobSchema>;

export const adminCampaignIdParams = z.object({ id: idParam });
export const adminAgentIdParams = z.object({ agentId: idParam });

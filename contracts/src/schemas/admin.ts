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


export const adminRetryJobSchema = z.object({
  queue: z.string().trim().min(1, { error: 'Queue is required' }).max(200),
  id: z.uuid({ error: 'Job id must be a UUID' }),
});
export type AdminRetryJobPayload = z.infer<typeof adminRetryJobSchema>;

export const adminCampaignIdParams = z.object({ id: idParam });
export const adminAgentIdParams = z.object({ agentId: idParam });

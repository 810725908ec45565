import { z } from 'zod';
import { creditMethodSchema } from './credits.js';
import { isoDateTimeSchema } from './common.js';

/**
 * Campaign reports (issue 26): what the ad did, for the agent and for the seller. Counts only: no buyer's name
 * or contact ever appears in a report.
 */
export const reportFiguresSchema = z.object({
  /** Impressions guaranteed (ordered) and delivered. */
  promised: z.number().int().positive(),
  delivered: z.number().int().nonnegative(),
  reach: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
  /** Click-through rate in percent (clicks ÷ impressions × 100), two decimals. */
  ctrPercent: z.number().nonnegative(),
  /** Impressions per person reached, two decimals. */
  frequency: z.number().nonnegative(),
  listingPageViews: z.number().int().nonnegative(),
  leads: z.number().int().nonnegative(),
});
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

export const reportDaySchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  impressions: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
});
export type ReportDay = z.infer<typeof reportDaySchema>;

/** One report on the agent's dashboard: GET /api/agents/{id}/reports. */
export const agentReportSchema = z.object({
  campaignId: z.number().int().positive(),
  headline: z.string().nullable(),
  listingAddress: z.string().nullable(),
  /** running: the campaign is still delivering (figures so far); final: settled. */
  status: z.enum(['running', 'final']),
  startsAt: isoDateTimeSchema.nullable(),
  endsAt: isoDateTimeSchema.nullable(),
  settledAt: isoDateTimeSchema.nullable(),
  figures: reportFiguresSchema,
  /** The credit for a shortfall (final reports), null when the guarantee was met. */
  credit: z.object({ amountCents: z.number().int().positive(), method: creditMethodSchema, status: z.enum(['pending', 'succeeded', 'failed']) }).nullable(),
  /** The seller link while it is live; null when revoked (or before the final report). */
  sellerUrl: z.string().nullable(),
  /** The PDF, for the agent (behind the login). */
  pdfUrl: z.string(),
});
export type AgentReport = z.infer<typeof agentReportSchema>;
export const agentReportsSchema = z.array(agentReportSchema);

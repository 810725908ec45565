import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../../platform/jobs/job';
import { sendScaledFollowUp } from '../../../platform/jobs/scaled-schedule';
import { syncCampaignMetrics } from '../metrics/sync-metrics';

/**
 * campaigns.sync-metrics, every minute: delivery (daily rows and lifetime figures) of the campaigns due a
 * read; campaigns that reached their goal or whose flight is over → stopped at the platform and completed;
 * launches stuck without a job → launch_failed. Idempotent: each pass writes what the platform says now.
 * No retries: the next minute is the retry. With CAMPAIGN_TIME_SCALE < 1 it also runs every 60 s × scale.
 */
export const syncMetricsJob: JobDefinition<Record<string, never>> = defineJob({
  name: 'campaigns.sync-metrics',
  payload: z.object({}) as z.ZodType<Record<string, never>>,
  schedule: '* * * * *',
  batchSize: 1,
  options: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 55 },
  async handler(_payload, ctx) {
    await syncCampaignMetrics({ db: ctx.db, config: ctx.config, logger: ctx.logger, signal: ctx.signal });
    await sendScaledFollowUp(ctx, syncMetricsJob);
  },
});

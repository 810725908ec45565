import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { syncCampaignMetrics } from '../metrics/sync-metrics';

/**
 * campaigns.sync-metrics, every minute: delivery (impressions, reach, clicks) of active campaigns
 * from their ad platform; campaigns past their end → completed; launches stuck without a job →
 * launch_failed. Idempotent: each pass writes what the platform says now. No retries: the next
 * minute is the retry.
 */
export const syncMetricsJob = defineJob({
  name: 'campaigns.sync-metrics',
  payload: z.object({}),
  schedule: '* * * * *',
  batchSize: 1,
  options: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 55 },
  async handler(_payload, ctx) {
    await syncCampaignMetrics({ db: ctx.db, config: ctx.config, logger: ctx.logger, signal: ctx.signal });
  },
});

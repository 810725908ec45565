import { z } from 'zod';
import { defineJob, type JobDefinition } from '../../../platform/jobs/job';
import { sendScaledFollowUp } from '../../../platform/jobs/scaled-schedule';
import { settleEndedCampaigns } from '../settlement';
import { sendMidFlightReports } from '../mid-flight';

/**
 * reports.sweep, every minute: settles ended campaigns (credit, final report, seller link) and sends the
 * mid-flight reports that are due. Idempotent: each campaign is settled and reported once, however often this
 * runs. With CAMPAIGN_TIME_SCALE < 1 it also runs every 60 s × scale.
 */
export const reportsSweepJob: JobDefinition<Record<string, never>> = defineJob({
  name: 'reports.sweep',
  payload: z.object({}) as z.ZodType<Record<string, never>>,
  schedule: '* * * * *',
  batchSize: 1,
  options: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 300 },
  async handler(_payload, ctx) {
    const deps = { db: ctx.db, config: ctx.config, logger: ctx.logger, queue: ctx.queue };
    await settleEndedCampaigns(deps);
    await sendMidFlightReports(deps);
    await sendScaledFollowUp(ctx, reportsSweepJob);
  },
});

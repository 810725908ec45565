import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { autopilotDeps } from '../deps';
import { sweep } from '../launch';

/**
 * autopilot.sweep, every minute: due drafts whose launch job was lost, drafts waiting for the agent (paid on
 * the checkout page, a new card saved, or expired), resume offers that expired. No retries: the next minute.
 */
export const sweepJob = defineJob({
  name: 'autopilot.sweep',
  payload: z.object({}),
  schedule: '* * * * *',
  batchSize: 1,
  options: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 55 },
  async handler(_payload, ctx) {
    const out = await sweep(autopilotDeps(ctx));
    if (out.launched || out.retried || out.expired) ctx.logger.info(out, 'autopilot: sweep');
  },
});

import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { autopilotDeps } from '../deps';
import { launchDue } from '../launch';

/**
 * autopilot.launch-due {runId}: sent with the draft, to start at its launchAt. Charges the saved card and
 * hands the paid campaign to the launch; a run not due, or taken by another worker, is left alone. Provider
 * outages are retried with backoff (the run waits in `scheduled`); the sweep is the backstop.
 */
export const launchDueJob = defineJob({
  name: 'autopilot.launch-due',
  payload: z.object({ runId: z.number().int().positive() }),
  options: { retryLimit: 8, retryDelay: 15, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 300, deadLetter: deadLetterName('autopilot.launch-due') },
  batchSize: 10,
  localConcurrency: 2,
  async handler({ runId }, ctx) {
    await launchDue(autopilotDeps(ctx), runId);
  },
});

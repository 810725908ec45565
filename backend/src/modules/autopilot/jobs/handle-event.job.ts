import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { autopilotDeps } from '../deps';
import { handleListingEvent } from '../event-flow';

/**
 * autopilot.handle-event {eventId, agentId}: what one listing event means for one agent with autopilot on
 * (a draft, a pause, a stop, a resume offer). Safe to run again: each (event, agent, kind) is one run. A pause
 * of a campaign still launching fails the attempt, and the retry pauses it once it is live.
 */
export const handleEventJob = defineJob({
  name: 'autopilot.handle-event',
  payload: z.object({ eventId: z.number().int().positive(), agentId: z.number().int().positive() }),
  options: { retryLimit: 8, retryDelay: 10, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 300, deadLetter: deadLetterName('autopilot.handle-event') },
  // The copywriter may take seconds (OpenAI): several at once.
  batchSize: 10,
  localConcurrency: 2,
  async handler({ eventId, agentId }, ctx) {
    await handleListingEvent(autopilotDeps(ctx), eventId, agentId);
  },
});

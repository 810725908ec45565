import { defineJob } from '../../../platform/jobs/job';
import { listingEventsPublished } from '../../mls';
import { eventsForAgents } from '../event-flow';
import { handleEventJob } from './handle-event.job';

/**
 * autopilot.listing-events: takes the mls module's `mls.listing-events` (one per replicated page) and sends
 * one autopilot.handle-event per event and agent with autopilot on, in one transaction.
 */
export const listingEventsJob = defineJob({
  name: 'autopilot.listing-events',
  payload: listingEventsPublished.payload,
  subscribe: [listingEventsPublished],
  options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 120, expireInSeconds: 120 },
  async handler({ eventIds }, ctx) {
    const pairs = await eventsForAgents(ctx, eventIds);
    if (!pairs.length) return;
    await ctx.db.transaction((trx) => ctx.queue.sendMany(handleEventJob, pairs, { trx }));
    ctx.logger.info({ events: eventIds.length, handled: pairs.length }, 'autopilot: listing events for agents with autopilot on');
  },
});

import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { pollFeed, pollProvider } from '../feed/poll';

/**
 * mls.poll-feeds, every minute: polls the configured MLS's feed when it is due (every MLS_POLL_INTERVAL_S),
 * one poll at a time across processes (the feed's lease). No retries: the next minute is the retry, and it
 * resumes after the last page applied.
 */
export const pollFeedsJob = defineJob({
  name: 'mls.poll-feeds',
  payload: z.object({}),
  schedule: '* * * * *',
  batchSize: 1,
  // A first pass over a large feed takes a while; the feed's lease (renewed by every page) keeps other polls off it.
  options: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 900, heartbeatSeconds: 30 },
  async handler(_payload, ctx) {
    const provider = pollProvider(ctx.config, ctx.db, ctx.logger);
    await pollFeed({ db: ctx.db, queue: ctx.queue, config: ctx.config, logger: ctx.logger, provider });
  },
});

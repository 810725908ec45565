import type { Db } from '../db/knex';
import type { JobContext, JobDefinition } from './job';

/**
 * A scheduled job runs at most once a minute (cron). With CAMPAIGN_TIME_SCALE below 1 (tests and demos:
 * shorter flights), a campaign's sweeps must run more often: after each run, the job sends its next run
 * itself, `60 s × scale` later (at least a second), unless a run is already waiting. Nothing happens at
 * scale 1. Several workers may both send one now and then; the runs are idempotent, and the next ones
 * see a waiting run and send none.
 */
export async function sendScaledFollowUp(ctx: Pick<JobContext, 'config' | 'queue'> & { db: Db }, job: JobDefinition<Record<string, never>>): Promise<void> {
  const scale = ctx.config.CAMPAIGN_TIME_SCALE;
  if (scale >= 1) return;
  const waiting = await ctx.db('pgboss.job').where({ name: job.name, state: 'created' }).first('id');
  if (waiting) return;
  await ctx.queue.send(job, {}, { startAfter: Math.max(1, Math.round(60 * scale)) });
}

/** A duration of campaign time in milliseconds, shortened by CAMPAIGN_TIME_SCALE. */
export function scaledMs(config: { CAMPAIGN_TIME_SCALE: number }, ms: number): number {
  return ms * config.CAMPAIGN_TIME_SCALE;
}

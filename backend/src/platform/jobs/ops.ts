import type { PgBoss } from 'pg-boss';
import type { Db } from '../db/knex';
import { bossDbFor } from './queue';

/**
 * Operator views and actions over the queue (the ops CLI and, later, the admin dashboard).
 * They read pg-boss's own table: the truth about every job.
 */

export interface QueueSummary {
  queue: string;
  created: number;
  retry: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
}

export async function listQueues(db: Db): Promise<QueueSummary[]> {
  const { rows } = await db.raw(`
    select q.name as queue,
           count(j.id) filter (where j.state = 'created')   as created,
           count(j.id) filter (where j.state = 'retry')     as retry,
           count(j.id) filter (where j.state = 'active')    as active,
           count(j.id) filter (where j.state = 'completed') as completed,
           count(j.id) filter (where j.state = 'failed')    as failed,
           count(j.id) filter (where j.state = 'cancelled') as cancelled
      from pgboss.queue q
      left join pgboss.job j on j.name = q.name
     group by q.name
     order by q.name`);
  return rows.map((r: Record<string, string>) => ({
    queue: r.queue,
    created: Number(r.created),
    retry: Number(r.retry),
    active: Number(r.active),
    completed: Number(r.completed),
    failed: Number(r.failed),
    cancelled: Number(r.cancelled),
  }));
}

export interface FailedJob {
  id: string;
  queue: string;
  retryCount: number;
  createdOn: Date;
  completedOn: Date | null;
  /** From the dead-letter copy: the queue it failed in. */
  sourceQueue: string | null;
  error: string | null;
  data: unknown;
}

/** Failed jobs, newest first: those that used up their retries, and the copies in dead-letter queues. */
export async function listFailed(db: Db, opts: { queue?: string; limit?: number } = {}): Promise<FailedJob[]> {
  const { rows } = await db.raw(
    `select id, name, retry_count, created_on, completed_on, source_name, output, source_output, data
       from pgboss.job
      where (state = 'failed' or (source_name is not null and state in ('created', 'retry')))
        and (?::text is null or name = ? or source_name = ?)
      order by coalesce(completed_on, created_on) desc
      limit ?`,
    [opts.queue ?? null, opts.queue ?? null, opts.queue ?? null, opts.limit ?? 50],
  );
  return rows.map((r: Record<string, any>) => ({
    id: r.id,
    queue: r.name,
    retryCount: r.retry_count,
    createdOn: r.created_on,
    completedOn: r.completed_on,
    sourceQueue: r.source_name,
    error: errorText(r.output) ?? errorText(r.source_output),
    data: r.data,
  }));
}

function errorText(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const o = output as { message?: unknown; value?: { message?: unknown } };
  const m = o.message ?? o.value?.message;
  return typeof m === 'string' ? m : JSON.stringify(output).slice(0, 500);
}

/** Put a failed job back in its queue with fresh retries (pg-boss retry). */
export async function retryJob(boss: PgBoss, queue: string, id: string): Promise<boolean> {
  const res = await boss.retry(queue, id);
  return (res as { affected?: number }).affected !== 0;
}

/**
 * Move every job waiting in `<queue>`'s dead-letter queue back into the queue it failed in,
 * as new jobs with the same payload. Handlers are idempotent, so a redriven job is safe to run.
 */
export async function redrive(db: Db, boss: PgBoss, deadLetterQueue: string): Promise<{ moved: number }> {
  const { rows } = await db.raw(
    `select id, source_name, data from pgboss.job where name = ? and state in ('created', 'retry') and source_name is not null`,
    [deadLetterQueue],
  );
  let moved = 0;
  for (const r of rows as { id: string; source_name: string; data: object }[]) {
    await db.transaction(async (trx) => {
      const dbOpt = await bossDbFor(trx);
      await boss.send(r.source_name, r.data, { db: dbOpt } as never);
      await boss.deleteJob(deadLetterQueue, r.id, { db: dbOpt } as never);
    });
    moved++;
  }
  return { moved };
}

/**
 * Retry one job from the failed-work list: a failed job runs again with fresh retries; a copy waiting in
 * a dead-letter queue goes back to the queue it failed in (as `redrive` does for the whole queue).
 */
export async function retryFailedJob(db: Db, boss: PgBoss, queue: string, id: string): Promise<boolean> {
  const { rows } = await db.raw(`select source_name, data, state from pgboss.job where name = ? and id = ?`, [queue, id]);
  const job = rows[0] as { source_name: string | null; data: object; state: string } | undefined;
  if (!job) return false;
  if (job.source_name && (job.state === 'created' || job.state === 'retry')) {
    await db.transaction(async (trx) => {
      const dbOpt = await bossDbFor(trx);
      await boss.send(job.source_name!, job.data, { db: dbOpt } as never);
      await boss.deleteJob(queue, id, { db: dbOpt } as never);
    });
    return true;
  }
  return retryJob(boss, queue, id);
}

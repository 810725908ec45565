import crypto from 'node:crypto';
import { PgBoss, type Job, type JobResult } from 'pg-boss';
import type { Knex } from 'knex';
import { sqlOf, type Db } from '../db/knex';
import type { PoolStats } from '../db/knex';
import type { SqlExecutor } from '../db/pipelined-connection';
import type { Logger } from '../logger';
import type { Config } from '../config';
import { recordJobRun } from '../metrics';
import { currentTraceCarrier, markActiveSpanFailed, openJobSpan, runJobInSpan, TRACE_KEY, withTraceContext, type TraceCarrier } from '../telemetry/trace-context';
import { PermanentJobError, type EventDefinition, type JobDefinition, type JobSender } from './job';

const DLQ_SUFFIX = '.dead';

/** The queue: what a job's handler may do with it (JobSender, in job.ts), plus the workers' life cycle. */
export interface Queue extends JobSender {
  boss: PgBoss;
  start(): Promise<void>;
  /**
   * Stops taking jobs at once; the handlers running get up to `timeoutMs` to finish, and those still running
   * then are failed ("pg-boss shut down while active"): their retry runs them again, here or in another
   * worker. Sending still works until `stop()` (a web request in flight may enqueue).
   */
  drain(timeoutMs: number): Promise<void>;
  /** Drains (20 s) unless drained already, then closes the queue's connections. */
  stop(): Promise<void>;
  isReady(): Promise<boolean>;
  /** The job queue's connection pool, for the metrics (undefined before start and after stop). */
  poolStats(): PoolStats | undefined;
}

/** pg-boss's `db` option over a knex transaction: the job insert runs on the transaction's own connection. */
export async function bossDbFor(trx: Knex.Transaction) {
  return bossDbOn(await sqlOf(trx));
}

/** pg-boss's `db` option over a transaction's executor. */
export function bossDbOn(sql: SqlExecutor) {
  return { executeSql: (text: string, values?: unknown[]) => sql.query({ name: preparedName(text), text, values }) as never };
}

const names = new Map<string, string>();
/** pg-boss's statements are few and fixed per queue: each is prepared once per connection, by a name from its text. */
function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `pgboss-${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (names.size < 100) names.set(text, name);
  }
  return name;
}

export function createQueue(opts: {
  connectionString: string;
  db: Db;
  logger: Logger;
  config: Config;
  jobs: JobDefinition<any>[];
  /** Start workers (false: send-only, e.g. the ops CLI or a web-only process). */
  work?: boolean;
  /** Run workers for these job names only (tests); every queue is still created, so any job can be sent. */
  workers?: string[];
}): Queue {
  const { db, logger, config, jobs } = opts;
  const log = logger.child({ module: 'jobs' });
  // LISTEN needs a session of its own: behind a transaction pooler the server connection that ran LISTEN goes
  // back to the pool with the transaction, and no notification arrives (checked with PgBouncer 1.18). Workers then
  // poll, twice as often as the backstop poll below: a new job waits 0.25 s on average instead of a few ms.
  const listen = config.DATABASE_POOLER !== 'transaction';
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    application_name: 'listing-ads-jobs',
    max: 6,
    // How often pg-boss looks for expired jobs and jobs whose heartbeat stopped (a killed worker).
    superviseIntervalSeconds: 10,
    // Workers wake on LISTEN/NOTIFY instead of waiting for the next poll.
    useListenNotify: listen,
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (err: unknown) => log.error({ err }, 'queue error'));
  const byName = new Map(jobs.map((j) => [j.name, j]));
  const sender: JobSender = { send: (...args) => send(...args), sendMany: (...args) => sendMany(...args), publish: (...args) => publish(...args) };

  /** Runs one job: in a span continuing its sender's trace (when tracing is on), counted in the metrics. */
  function runOne(def: JobDefinition<any>, job: Job<unknown>): Promise<JobResult> {
    return runJobInSpan({ queue: def.name, id: job.id, retryCount: job.retryCount, data: job.data }, async () => {
      const started = performance.now();
      const result = await handle(def, job);
      recordJobRun(def.name, result.status === 'completed' ? 'completed' : result.status === 'failed' ? 'failed' : 'dead_lettered', (performance.now() - started) / 1000);
      if (result.status !== 'completed') markActiveSpanFailed((result.output as { message?: string } | undefined)?.message ?? result.status);
      return result;
    });
  }

  async function handle(def: JobDefinition<any>, job: Job<unknown>): Promise<JobResult> {
    const jobLog = log.child({ job: def.name, jobId: job.id, attempt: job.retryCount + 1 });
    const parsed = def.payload.safeParse(payloadOf(job.data));
    if (!parsed.success) {
      jobLog.error({ issues: parsed.error.issues }, 'job payload is invalid; dead-lettering');
      return { id: job.id, status: 'deadletter', output: { message: 'invalid payload' } };
    }
    const started = Date.now();
    try {
      await def.handler(parsed.data, { db, logger: jobLog, config, queue: sender, jobId: job.id, retryCount: job.retryCount, signal: job.signal });
      jobLog.debug({ ms: Date.now() - started }, 'job completed');
      return { id: job.id, status: 'completed' };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof PermanentJobError) {
        jobLog.warn({ err: message }, 'job failed permanently');
        return { id: job.id, status: 'deadletter', output: { message } };
      }
      jobLog.warn({ err: message }, 'job failed; pg-boss retries it while retries remain');
      return { id: job.id, status: 'failed', output: { message } };
    }
  }

  /**
   * Runs a fetch through the queue's batch handler (JobDefinition.batchHandler): payloads checked one by one (an
   * invalid one is dead-lettered alone), each job in its own span, counted and logged as `handle` does, and
   * settled with its own outcome.
   */
  async function handleBatch(def: JobDefinition<any>, batch: Job<unknown>[]): Promise<JobResult[]> {
    const started = performance.now();
    const results: JobResult[] = [];
    const runnable: { index: number; job: Job<unknown>; payload: unknown; span: ReturnType<typeof openJobSpan> }[] = [];
    batch.forEach((job, index) => {
      const parsed = def.payload.safeParse(payloadOf(job.data));
      if (!parsed.success) {
        log.error({ job: def.name, jobId: job.id, issues: parsed.error.issues }, 'job payload is invalid; dead-lettering');
        results[index] = { id: job.id, status: 'deadletter', output: { message: 'invalid payload' } };
        return;
      }
      runnable.push({ index, job, payload: parsed.data, span: openJobSpan({ queue: def.name, id: job.id, retryCount: job.retryCount, data: job.data }) });
    });
    let errors: readonly (Error | undefined)[];
    try {
      errors = await def.batchHandler!(
        runnable.map((r) => ({ payload: r.payload, jobId: r.job.id, retryCount: r.job.retryCount, signal: r.job.signal, run: r.span.run })),
        { db, logger: log.child({ job: def.name }), config, queue: sender },
      );
    } catch (err) {
      errors = runnable.map(() => (err instanceof Error ? err : new Error(String(err))));
    }
    const seconds = (performance.now() - started) / 1000;
    runnable.forEach((r, k) => {
      const err = errors[k];
      const id = r.job.id;
      if (err === undefined) {
        results[r.index] = { id, status: 'completed' };
      } else if (err instanceof PermanentJobError) {
        log.warn({ job: def.name, jobId: id, attempt: r.job.retryCount + 1, err: err.message }, 'job failed permanently');
        results[r.index] = { id, status: 'deadletter', output: { message: err.message } };
      } else {
        log.warn({ job: def.name, jobId: id, attempt: r.job.retryCount + 1, err: err.message }, 'job failed; pg-boss retries it while retries remain');
        results[r.index] = { id, status: 'failed', output: { message: err.message } };
      }
      recordJobRun(def.name, err === undefined ? 'completed' : err instanceof PermanentJobError ? 'dead_lettered' : 'failed', seconds);
      r.span.end(err);
    });
    return results;
  }

  const send: Queue['send'] = async (def, payload, sendOpts = {}) => {
    const data = withTraceContext(def.payload.parse(payload) as object, currentTraceCarrier());
    const options: Record<string, unknown> = {};
    if (sendOpts.singletonKey) options.singletonKey = sendOpts.singletonKey;
    if (sendOpts.startAfter) options.startAfter = sendOpts.startAfter;
    if (sendOpts.trx) options.db = await bossDbFor(sendOpts.trx);
    return boss.send(def.name, data, options);
  };

  const sendMany: Queue['sendMany'] = async (def, payloads, sendOpts = {}) => {
    if (payloads.length === 0) return [];
    // Parsed first, as `send` does: one bad payload enqueues none of them.
    const current = currentTraceCarrier();
    const rows = payloads.map((payload, i) => {
      const data = withTraceContext(def.payload.parse(payload) as object, sendOpts.traces?.[i] ?? current);
      const startAfter = sendOpts.startAfter?.[i];
      return startAfter ? { data, startAfter } : { data };
    });
    // The same INSERT that `send` runs (the job's options default to the queue's), for all rows at once.
    const db = sendOpts.sql ? bossDbOn(sendOpts.sql) : sendOpts.trx ? await bossDbFor(sendOpts.trx) : undefined;
    const ids = await boss.insert(def.name, rows, { returnId: true, ...(db ? { db } : {}) });
    return ids ?? [];
  };

  const publish: Queue['publish'] = async (event, payload, publishOpts = {}) => {
    // The trace goes on with each subscriber's job, as with send.
    const data = withTraceContext(event.payload.parse(payload) as object, currentTraceCarrier());
    await boss.publish(event.name, data, publishOpts.trx ? { db: await bossDbFor(publishOpts.trx) } : {});
  };

  return {
    boss,
    send,
    sendMany,
    publish,
    async start() {
      await boss.start();
      for (const def of jobs) {
        if (def.options.deadLetter !== undefined && !byName.has(def.options.deadLetter)) {
          // A dead-letter queue must exist before the queue that names it.
          await boss.createQueue(def.options.deadLetter, { retentionSeconds: 60 * 60 * 24 * 14 });
        }
        await boss.createQueue(def.name, { ...def.options, notify: listen });
        await boss.updateQueue(def.name, { ...def.options, notify: listen });
        if (def.schedule) await boss.schedule(def.name, def.schedule, {}, { tz: 'UTC' } as never);
        for (const event of def.subscribe ?? []) await boss.subscribe(event.name, def.name);
      }
      // pg-boss reads a queue's settings on its own pool the first time it inserts into it after updateQueue (which
      // empties its cache of them): inside a caller's transaction, that is a second connection awaited while one is
      // held. Behind a transaction pooler every server connection can be held by such transactions at once (after a
      // restart, under load), and none comes back. An insert of no jobs fills that cache now.
      for (const def of jobs) await boss.insert(def.name, []);
      // Campaign time scaled (tests, demos): the scheduled sweeps start now, then send their own next runs
      // (platform/jobs/scaled-schedule.ts) instead of waiting for the next minute.
      if (config.CAMPAIGN_TIME_SCALE < 1 && opts.work !== false) {
        for (const def of jobs) if (def.schedule && (!opts.workers || opts.workers.includes(def.name))) await boss.send(def.name, {});
      }
      if (opts.work === false) return;
      for (const def of jobs) {
        if (opts.workers && !opts.workers.includes(def.name)) continue;
        await boss.work(
          def.name,
          {
            batchSize: def.batchSize ?? 20,
            localConcurrency: def.localConcurrency ?? 1,
            burstWhenBatchFull: true,
            perJobResults: true,
            // New jobs wake workers through NOTIFY; this poll is the backstop that picks up retries and delayed jobs
            // (and, without LISTEN, pg-boss's shortest polling interval is all there is).
            pollingIntervalSeconds: listen ? 1 : 0.5,
            notifyPollingIntervalSeconds: 2,
          },
          (batch: Job<unknown>[]) => (def.batchHandler ? handleBatch(def, batch) : Promise.all(batch.map((job) => runOne(def, job)))),
        );
      }
      log.info({ queues: jobs.map((j) => j.name) }, 'job workers started');
    },
    async drain(timeoutMs) {
      await boss.stop({ graceful: true, timeout: timeoutMs, close: false });
    },
    async stop() {
      // Graceful: running handlers finish before the pool closes (after a drain: the pool closes).
      await boss.stop({ graceful: true, timeout: 20000, close: true });
    },
    poolStats() {
      const pool = (boss.getDb() as { pool?: { totalCount: number; idleCount: number; waitingCount: number } }).pool;
      if (!pool) return undefined;
      return { pool: 'pg-boss', inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    async isReady() {
      try {
        await boss.getQueues([jobs[0]?.name ?? '']);
        return true;
      } catch {
        return false;
      }
    },
  };
}

export const deadLetterName = (queue: string) => `${queue}${DLQ_SUFFIX}`;

/** A job's payload as its schema sees it: without the trace context it carries (platform/telemetry). */
function payloadOf(data: unknown): unknown {
  if (!data || typeof data !== 'object' || !(TRACE_KEY in data)) return data;
  const { [TRACE_KEY]: _trace, ...payload } = data as Record<string, unknown>;
  return payload;
}

import type { z } from 'zod';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import type { Config } from '../config';
import type { Knex } from 'knex';
import type { SqlExecutor } from '../db/pipelined-connection';
import type { TraceCarrier } from '../telemetry/trace-context';

/**
 * Sending work to the queue (platform/jobs/queue.ts implements it): what a handler, a command or a route may do.
 * Declared here, beside the definitions it takes, so that the queue depends on the jobs and never the other way.
 */
export interface JobSender {
  /**
   * Enqueue a job. Pass the knex transaction of the write that causes it: the job row is
   * written in that same transaction, so a rolled-back write never runs its job.
   */
  send<P>(job: JobDefinition<P>, payload: P, opts?: { trx?: Knex.Transaction; singletonKey?: string; startAfter?: number | Date }): Promise<string | null>;
  /**
   * Enqueue several jobs of one kind in one statement (pg-boss `insert`), each as `send` would with no
   * options: same queue, same retry and expiry (the queue's), same payload checks. Pass the transaction
   * as for `send`, or `sql`: a transaction's executor (a pipelined transaction: the insert is sent there,
   * behind its statements). Returns the new jobs' ids.
   *
   * With tracing on, each job carries the trace context of its sender: per payload `traces[i]` (jobs for work
   * that several requests handed over together, e.g. the leads of one group commit), else the current one.
   * `startAfter[i]`: when payload i's job may start (as `send`'s startAfter), else at once.
   */
  sendMany<P>(
    job: JobDefinition<P>,
    payloads: readonly P[],
    opts?: { trx?: Knex.Transaction; sql?: SqlExecutor; traces?: readonly (TraceCarrier | undefined)[]; startAfter?: readonly (Date | undefined)[] },
  ): Promise<string[]>;
  /**
   * Announce an event (pg-boss publish): one job in each queue that subscribes to it (JobDefinition.subscribe),
   * written in `trx` like `send`. Nobody subscribed: nothing is sent.
   */
  publish<P>(event: EventDefinition<P>, payload: P, opts?: { trx?: Knex.Transaction }): Promise<void>;
}

export interface JobContext {
  db: Db;
  logger: Logger;
  config: Config;
  /** To enqueue follow-up work (e.g. the next delivery attempt) or announce events inside the handler's own transaction. */
  queue: JobSender;
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Aborted when the job expires or the worker stops. */
  signal: AbortSignal;
}

export interface JobQueueOptions {
  retryLimit: number;
  /** Seconds before the first retry; doubled each time when retryBackoff is on. */
  retryDelay: number;
  retryBackoff: boolean;
  retryDelayMax?: number;
  expireInSeconds: number;
  /** Jobs that exhaust their retries (or fail permanently) land here. */
  deadLetter?: string;
  /**
   * pg-boss fails an active job whose worker stopped refreshing its heartbeat (a killed process) after
   * this many seconds, instead of waiting out expireInSeconds; its retry then picks the work up again.
   */
  heartbeatSeconds?: number;
}

export interface JobDefinition<P = unknown> {
  /** A public contract: never renamed. */
  name: string;
  payload: z.ZodType<P>;
  options: JobQueueOptions;
  /** Cron schedule (UTC) for recurring jobs; the payload is `{}`. */
  schedule?: string;
  /** Jobs taken per fetch; defaults to 20. */
  batchSize?: number;
  /**
   * Workers for this queue in each process (pg-boss `localConcurrency`); defaults to 1. A worker runs its
   * batch to the end before it fetches again, so jobs that arrive one after another while a slow batch runs
   * wait for it unless another worker is free to take them.
   */
  localConcurrency?: number;
  /**
   * Events this queue takes (pg-boss subscribe): each `queue.publish` of one sends this job with the event's
   * payload, in the publisher's transaction. How a module reacts to another's news without the publisher
   * knowing who listens (the mls module's listing events, which autopilot takes).
   */
  subscribe?: readonly EventDefinition<P>[];
  handler: (payload: P, ctx: JobContext) => Promise<void>;
  /**
   * Runs a whole fetch of this queue's jobs at once instead of `handler` per job: how a queue whose jobs each cost a
   * few statements writes them per fetch (one statement for the batch where each job would have made one). Answers
   * one settlement per job, in the order given: undefined when the job is done, or the error it failed with (retried
   * under the queue's options; a PermanentJobError dead-letters it). Each job is settled alone: one job's error
   * fails only that job. A throw fails them all. `handler` stays the way to run one job by hand.
   */
  batchHandler?: (jobs: readonly BatchJob<P>[], ctx: BatchContext) => Promise<readonly (Error | undefined)[]>;
}

/** What a batch handler gets for the fetch: the JobContext without one job's id, attempt and signal. */
export type BatchContext = Omit<JobContext, 'jobId' | 'retryCount' | 'signal'>;

/** One job of a fetch, for a batch handler. */
export interface BatchJob<P> {
  payload: P;
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Aborted when the job expires or the worker stops. */
  signal: AbortSignal;
  /** Runs `work` as this job's own (in its trace span, when tracing is on): its outbound calls and log lines. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function defineJob<P>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
}

/**
 * Something a module announces (pg-boss publish): a name (a public contract, never renamed) and its
 * payload schema (ids only, JSON-safe). Every queue whose job definition subscribes to it gets a job.
 */
export interface EventDefinition<P = unknown> {
  name: string;
  payload: z.ZodType<P>;
}

export function defineEvent<P>(def: EventDefinition<P>): EventDefinition<P> {
  return def;
}

/** Thrown by a handler when retrying cannot help (bad input, a provider's 4xx): the job goes straight to its dead-letter queue. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

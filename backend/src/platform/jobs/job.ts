import type { z } from 'zod';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import type { Config } from '../config';
import type { Queue } from './queue';

export interface JobContext {
  db: Db;
  logger: Logger;
  config: Config;
  /** To enqueue follow-up work (e.g. the next delivery attempt) inside the handler's own transaction. */
  queue: Pick<Queue, 'send' | 'sendMany'>;
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
  handler: (payload: P, ctx: JobContext) => Promise<void>;
}

export function defineJob<P>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
}

/** Thrown by a handler when retrying cannot help (bad input, a provider's 4xx): the job goes straight to its dead-letter queue. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

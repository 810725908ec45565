import type { Context, Next } from 'koa';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { pipelineOf, type Db } from '../db/knex';
import { tooManyRequests } from '../errors';
import { recordRateLimitRefusal } from '../metrics';

/** The table every limiter counts in (migration 20261123190000_platform_create_rate_limits). */
export const RATE_LIMIT_TABLE = 'rate_limits';

export interface RateLimitOptions {
  /** Names the limit; counts of different limits never mix. Stable: it is part of the stored key. */
  name: string;
  points: number;
  durationSeconds: number;
  /** An extra key besides the client address (the email tried, the session, the listing…). */
  key?: (ctx: Context) => string;
  /** Count by the extra key alone, not per client address (e.g. per listing, whoever sends). */
  keyOnly?: boolean;
}

/**
 * One limiter per (database, name). Counts live in PostgreSQL, so every app process and worker shares
 * one budget (a new process brings no fresh one). The database comes from the app (`app.context.db`);
 * the counts go over its pipelined connection (`pipelineOf`).
 */
const limiters = new WeakMap<Db, Map<string, RateLimiterPostgres>>();

export function limiterFor(db: Db, opts: Pick<RateLimitOptions, 'name' | 'points' | 'durationSeconds'>): RateLimiterPostgres {
  let byName = limiters.get(db);
  if (!byName) limiters.set(db, (byName = new Map()));
  const id = `${opts.name}:${opts.points}:${opts.durationSeconds}`;
  let limiter = byName.get(id);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      // Every count of this process goes over the database's one pipelined connection: no pool checkout,
      // and the requests counting at the same moment are sent without waiting on one another.
      storeClient: pipelineOf(db),
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      // Expired rows are deleted by the hourly purge job (platform.purge-expired-sessions), not by a timer in each process.
      clearExpiredByTimeout: false,
      keyPrefix: opts.name,
      points: opts.points,
      duration: opts.durationSeconds,
    });
    byName.set(id, limiter);
  }
  return limiter;
}

/**
 * Consume one point of a named limit; 429 with Retry-After when it is spent. Use where the key is known
 * only inside a handler; routes use `rateLimit()`. Answers the points consumed in the window, this one included.
 */
export async function consumeRateLimit(db: Db, opts: Pick<RateLimitOptions, 'name' | 'points' | 'durationSeconds'>, key: string): Promise<number> {
  try {
    return (await limiterFor(db, opts).consume(key)).consumedPoints;
  } catch (res) {
    if (res instanceof RateLimiterRes) {
      recordRateLimitRefusal(opts.name);
      throw tooManyRequests(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
    throw res;
  }
}

/** The points of a window that only counts (`countInWindow`): high enough never to refuse. */
export const COUNT_ONLY_POINTS = 2 ** 31 - 1;

/**
 * Counts one more event in a named window (per key, in PostgreSQL like every limit) and answers how many there
 * are in it now. Never refuses: a signal for the caller to weigh, not a limit. `refundRateLimit` with the same
 * options takes one back.
 */
export async function countInWindow(db: Db, opts: Pick<RateLimitOptions, 'name' | 'durationSeconds'>, key: string): Promise<number> {
  const res = await limiterFor(db, { ...opts, points: COUNT_ONLY_POINTS }).consume(key);
  return res.consumedPoints;
}

/** Give back one point of a named limit (a request that turned out not to count, such as a retry). */
export async function refundRateLimit(db: Db, opts: Pick<RateLimitOptions, 'name' | 'points' | 'durationSeconds'>, key: string): Promise<void> {
  await limiterFor(db, opts).reward(key, 1);
}

/**
 * Per-client rate limit (by the client address, plus an optional extra key such as the email tried).
 * The client address is Koa's `ctx.ip`: behind TRUST_PROXY it is taken TRUST_PROXY_HOPS from the right of
 * X-Forwarded-For (`maxIpsCount`), so a client cannot pick its own address by prepending values.
 */
export function rateLimit(opts: RateLimitOptions) {
  return async function limitRate(ctx: Context, next: Next) {
    const extra = opts.key ? opts.key(ctx) : '';
    const key = opts.keyOnly ? extra : opts.key ? `${ctx.ip}|${extra}` : ctx.ip;
    await consumeRateLimit((ctx.app.context as unknown as { db: Db }).db, opts, key);
    await next();
  };
}

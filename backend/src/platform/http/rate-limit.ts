import type { Context, Next } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';

/**
 * Per-client rate limit (by IP, plus an optional extra key such as the email tried).
 * In-memory: the product runs as one process; a second process would get its own budget.
 */
export function rateLimit(opts: { points: number; durationSeconds: number; key?: (ctx: Context) => string }) {
  const limiter = new RateLimiterMemory({ points: opts.points, duration: opts.durationSeconds });
  return async function limitRate(ctx: Context, next: Next) {
    const key = opts.key ? `${ctx.ip}|${opts.key(ctx)}` : ctx.ip;
    try {
      await limiter.consume(key);
    } catch (res) {
      const ms = (res as { msBeforeNext?: number }).msBeforeNext ?? 1000;
      throw tooManyRequests(Math.max(1, Math.ceil(ms / 1000)));
    }
    await next();
  };
}

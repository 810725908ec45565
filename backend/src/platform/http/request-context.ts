import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger';

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** A request id (taken from X-Request-Id when sane, else made), a child logger, and one access log line per API request. */
export function requestContext(logger: Logger) {
  return async function withRequestContext(ctx: Context, next: Next) {
    const incoming = ctx.get('x-request-id');
    const id = ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ reqId: id });
    ctx.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (ctx.path.startsWith('/api/')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
      }
    }
  };
}

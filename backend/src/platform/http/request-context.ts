import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger';

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const PROBES = new Set(['/api/health', '/api/ready']);

/**
 * What a request carries in `ctx.state`: its id, and its child logger, made on first use (most requests log
 * one access line only, through the shared access logger). A class, so the lazy getter lives once on its
 * prototype: defining it on each request's object cost a defineProperty and a closure per request.
 */
class RequestState {
  #logger: Logger;
  #child: Logger | undefined;
  constructor(
    readonly requestId: string,
    logger: Logger,
  ) {
    this.#logger = logger;
  }
  get log(): Logger {
    return (this.#child ??= this.#logger.child({ reqId: this.requestId }));
  }
}

/** A request id (taken from X-Request-Id when sane, else made), a child logger, and one access log line per API request. */
export function requestContext(logger: Logger) {
  // The access line holds only the request id, method, path, status and time: no key the redaction paths
  // name can be in it, so it skips that pass (a twentieth of a small request's CPU).
  const access = logger.child({}, { redact: { paths: [] } });
  return async function withRequestContext(ctx: Context, next: Next) {
    const incoming = ctx.get('x-request-id');
    const id = ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state = Object.assign(new RequestState(id, logger), ctx.state);
    ctx.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (ctx.path.startsWith('/api/')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const line = { reqId: id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 };
        // Load balancers and orchestrators probe these every few seconds: noise at info, kept at debug.
        if (PROBES.has(ctx.path) && ctx.status < 400) access.debug(line, 'request');
        else access.info(line, 'request');
      }
    }
  };
}

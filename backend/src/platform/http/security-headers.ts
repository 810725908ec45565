import type { Context, Next } from 'koa';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers, computed once. Our policy has no per-request part (no CSP nonces), so
 * every response carries the same headers: running helmet's Express middleware chain on each request
 * (what koa-helmet does) cost about a quarter of a small request's time for nothing.
 */
export function securityHeaders(options: HelmetOptions) {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
    getHeader(name: string) {
      return headers[name];
    },
  };
  let failed: unknown;
  helmet(options)({ method: 'GET', headers: {} } as never, res as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return async function setSecurityHeaders(ctx: Context, next: Next) {
    ctx.set(headers);
    await next();
  };
}

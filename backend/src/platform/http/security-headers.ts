import type { Context, Next } from 'koa';
import helmet, { type HelmetOptions } from 'helmet';

/** helmet's headers for our policy, computed once: it has no per-request part (no CSP nonces). */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
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
  return headers;
}

/**
 * The headers of a JSON answer under /api (OWASP REST Security Cheat Sheet, "Security headers"): nothing in
 * it may run, be framed or be read across origins, and a browser must not sniff it into something that
 * runs. helmet's other headers steer how a browser treats a document (DNS prefetch, downloads, the opener,
 * the origin's agent cluster, referrers of its links) and mean nothing for JSON; each header costs every
 * response, and the fourteen of the document set took a third of a small read's time.
 */
function apiHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
  const hsts = documentHeaders['Strict-Transport-Security'];
  if (hsts) headers['Strict-Transport-Security'] = hsts;
  return headers;
}

const isHtml = (ctx: Context) => String(ctx.response.get('Content-Type') ?? '').startsWith('text/html');

/**
 * Security headers: helmet's full set on documents (pages, built files), the API set on answers under
 * /api. An HTML page served under /api (the API reference, a link's confirmation page) gets the document
 * set once it is known to be one; every header of the API set is in the document set, so nothing of the
 * stricter API policy is left on it.
 */
export function securityHeaders(options: HelmetOptions) {
  const documentHeaders = helmetHeaders(options);
  const api = apiHeaders(documentHeaders);
  for (const name of Object.keys(api)) {
    if (!(name in documentHeaders)) throw new Error(`security headers: the document set must override ${name}`);
  }
  return async function setSecurityHeaders(ctx: Context, next: Next) {
    if (!ctx.path.startsWith('/api/')) {
      ctx.set(documentHeaders);
      return next();
    }
    ctx.set(api);
    await next();
    if (isHtml(ctx)) ctx.set(documentHeaders);
  };
}

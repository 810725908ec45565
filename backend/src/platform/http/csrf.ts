import type { Context, Next } from 'koa';
import { forbidden } from '../errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated routes: an unsafe method must come from our own origin.
 * Browsers send Sec-Fetch-Site (and Origin) on every cross-site POST; requests with neither header
 * come from non-browser clients, which carry no ambient cookies of our users worth forging.
 * Provider webhooks (signed by the provider) are exempt by path.
 */
export function csrfGuard(opts: { exemptPaths: string[]; trustedOrigins?: string[] }) {
  return async function guardCrossSite(ctx: Context, next: Next) {
    if (SAFE.has(ctx.method) || opts.exemptPaths.some((p) => ctx.path === p)) return next();
    const site = ctx.get('sec-fetch-site');
    const origin = ctx.get('origin');
    if (site && site !== 'same-origin' && site !== 'none') throw forbidden('request.cross_site', 'Cross-site requests are not allowed');
    if (origin) {
      const own = `${ctx.protocol}://${ctx.host}`;
      if (origin !== own && !(opts.trustedOrigins ?? []).includes(origin)) {
        throw forbidden('request.cross_site', 'Cross-site requests are not allowed');
      }
    }
    return next();
  };
}

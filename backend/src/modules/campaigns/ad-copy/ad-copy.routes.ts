import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { adCopyCheckResponseSchema, adCopyCheckSchema, adCopyRequestSchema, adCopyResponseSchema, idParam, type TemplateType } from '@app/contracts';
import { defineRoutes, route } from '../../../platform/http/route';
import { rateLimit } from '../../../platform/http/rate-limit';
import { actorOf } from '../../../platform/auth/actor';
import type { AppDeps } from '../../../platform/deps';
import { getOwnedListing } from '../listing-access';
import { checkFairHousing } from '../fair-housing/fair-housing';
import { optimizeAdCopy } from './ad-copy.service';
import { createAdCopyProvider } from './providers';

export const adCopyRoutes = defineRoutes({
  optimize: {
    method: 'post', path: '/api/listings/:id/optimize-ad-copy', auth: 'agent', tag: 'campaigns', summary: 'Fair-Housing-checked ad copy for a listing',
    params: z.object({ id: idParam }), body: adCopyRequestSchema, ok: { 200: adCopyResponseSchema }, errors: [403, 404, 429, 502],
  },
  check: { method: 'post', path: '/api/ad-copy/check', auth: 'public', tag: 'campaigns', summary: 'Fair Housing findings in a text', body: adCopyCheckSchema, ok: { 200: adCopyCheckResponseSchema }, errors: [429] },
});

/** AI calls per browser session per minute, and per IP (a session is cheap to make; an IP is not). */
export const AI_CALLS_PER_SESSION_PER_MINUTE = 20;
export const AI_CALLS_PER_IP_PER_MINUTE = 60;

/** The session's id once the session exists; cookie-less callers share their IP's bucket. */
function sessionKey(ctx: Context): string {
  const session = ctx.session as { isNew?: boolean; externalKey?: string } | null;
  return session && !session.isNew && session.externalKey ? `s:${session.externalKey}` : 'anonymous';
}

interface RefreshState {
  adCopyRefreshes?: Record<string, number>;
}

/**
 * Which variant this request gets: 0 for the first copy, then 1, 2, 3… for each refresh of the same
 * listing and ad type in this browser session, so two consecutive refreshes never give the same text.
 */
function nextVariant(ctx: Context, listingId: number, templateType: TemplateType, refresh: boolean): number {
  const session = ctx.session as unknown as RefreshState | null;
  if (!session) return refresh ? 1 : 0;
  const key = `${listingId}:${templateType}`;
  const counts = session.adCopyRefreshes ?? {};
  if (!refresh) {
    if (counts[key]) {
      delete counts[key];
      session.adCopyRefreshes = { ...counts };
    }
    return 0;
  }
  const n = (counts[key] ?? 0) + 1;
  // Keep the last 20 listings only: the session row stays small.
  const entries = Object.entries({ ...counts, [key]: n }).filter(([k]) => k !== key).slice(-19);
  session.adCopyRefreshes = Object.fromEntries([...entries, [key, n]]);
  return n;
}

export function adCopyRouter({ config, logger }: AppDeps): Router {
  const router = new Router();
  const provider = createAdCopyProvider(config, logger);
  const perIp = rateLimit({ name: 'ai-ip', points: AI_CALLS_PER_IP_PER_MINUTE, durationSeconds: 60 });
  const perSession = rateLimit({ name: 'ai-session', points: AI_CALLS_PER_SESSION_PER_MINUTE, durationSeconds: 60, key: sessionKey });

  route(router, adCopyRoutes.optimize, perIp, perSession, async (ctx, { params, body }) => {
    const listing = await getOwnedListing(actorOf(ctx), params.id);
    const refresh = body.refresh === true;
    const variant = nextVariant(ctx, listing.id, body.templateType, refresh);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { optimizedCopy: await optimizeAdCopy(provider, { listing, templateType: body.templateType, variant, refresh }) };
  });

  route(router, adCopyRoutes.check, perIp, perSession, async (ctx, { body }) => {
    ctx.body = { findings: checkFairHousing(body.text) };
  });

  return router;
}

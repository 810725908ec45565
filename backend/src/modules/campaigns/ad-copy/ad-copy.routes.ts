import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { adCopyCheckSchema, adCopyRequestSchema, idParam, type TemplateType } from '@app/contracts';
import { validate, inputOf } from '../../../platform/http/validate';
import { rateLimit } from '../../../platform/http/rate-limit';
import { actorOf } from '../../../platform/auth/actor';
import type { AppDeps } from '../../../platform/deps';
import { getOwnedListing } from '../listing-access';
import { checkFairHousing } from '../fair-housing/fair-housing';
import { optimizeAdCopy } from './ad-copy.service';
import { createAdCopyProvider } from './providers';

const OptimizeAdCopy = { params: z.object({ id: idParam }), body: adCopyRequestSchema };
const CheckAdCopy = { body: adCopyCheckSchema };

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

  router.post('/api/listings/:id/optimize-ad-copy', perIp, perSession, validate(OptimizeAdCopy), async (ctx) => {
    const { params, body } = inputOf(ctx, OptimizeAdCopy);
    const listing = await getOwnedListing(actorOf(ctx), params.id);
    const refresh = body.refresh === true;
    const variant = nextVariant(ctx, listing.id, body.templateType, refresh);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { optimizedCopy: await optimizeAdCopy(provider, { listing, templateType: body.templateType, variant, refresh }) };
  });

  router.post('/api/ad-copy/check', perIp, perSession, validate(CheckAdCopy), async (ctx) => {
    ctx.body = { findings: checkFairHousing(inputOf(ctx, CheckAdCopy).body.text) };
  });

  return router;
}

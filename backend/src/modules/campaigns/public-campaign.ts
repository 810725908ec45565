import Router from '@koa/router';
import { Model } from 'objection';
import { z } from 'zod';
import { mlsIdParam, publicCampaignSchema, type PublicCampaign } from '@app/contracts';
import type { AppDeps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { defineRoutes, route } from '../../platform/http/route';
import { answerConditionally, etagOf } from '../../platform/http/conditional';
import { findPublicListingRef, PUBLIC_LISTING_CACHE } from '../listings';

/** Statuses of a campaign someone paid for: only these are ever shown on a public page or pick a listing's agent. */
const PAID_STATUSES = ['paid', 'launching', 'active', 'completed', 'launch_failed'] as const;

/**
 * The public part of a listing's campaign (GET /api/listings/{mlsId}/campaign): the one paid for most
 * recently, or null. Drafts and unpaid campaigns are the agent's business, never a buyer's.
 */
export async function findPublicCampaign(listingId: number): Promise<PublicCampaign> {
  const row = await Model.knex()('campaigns')
    .where('listingId', listingId)
    .whereIn('status', PAID_STATUSES)
    .orderBy([{ column: 'statusChangedAt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('id', 'headline', 'description', 'imageUrl', 'status');
  return row ? { id: row.id, headline: row.headline, description: row.description, imageUrl: row.imageUrl, status: row.status } : null;
}

export const publicCampaignRoutes = defineRoutes({
  get: {
    method: 'get', path: '/api/listings/:mlsId/campaign', auth: 'public', tag: 'campaigns', summary: "The public part of the listing's paid campaign, or null",
    params: z.object({ mlsId: mlsIdParam }), ok: { 200: publicCampaignSchema, 304: { contentType: 'application/json', description: 'Not modified (ETag / If-None-Match)' } }, errors: [404],
  },
});

/** GET /api/listings/{mlsId}/campaign: public, cached like the listing itself; null when nothing was paid for. */
export function publicCampaignRouter({ caches }: AppDeps): Router {
  const router = new Router();
  route(router, publicCampaignRoutes.get, async (ctx, { params }) => {
    const ref = await findPublicListingRef({ caches }, params.mlsId);
    if (!ref) throw notFound('listing');
    const campaign = await findPublicCampaign(ref.listingId);
    if (answerConditionally(ctx, etagOf({ campaign }), PUBLIC_LISTING_CACHE)) return;
    // A JSON null body: Koa would answer 204 for `ctx.body = null`.
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(campaign);
  });
  return router;
}

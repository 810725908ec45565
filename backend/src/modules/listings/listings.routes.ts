import Router from '@koa/router';
import { z } from 'zod';
import { agentListingsPageSchema, agentListingsQuerySchema, idParam, listingCreateSchema, listingResponseSchema, listingViewSchema, mlsIdParam } from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { sendJson } from '../../platform/http/compression';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent } from '../agents';
import { agentListingsPageJson, createManualListing } from './listings.service';
import { presentListing } from './listings.presenter';
import { findListingResponse } from './public-listing';
import { notFound } from '../../platform/errors';
import { answerConditionally, etagOf } from '../../platform/http/conditional';

const Listing = listingViewSchema.meta({ id: 'Listing' });

export const listingsRoutes = defineRoutes({
  agentListings: {
    method: 'get', path: '/api/agents/:id/listings', auth: 'agent', tag: 'listings', summary: "The agent's listings, a page at a time (active first, newest first)",
    params: z.object({ id: idParam }), query: agentListingsQuerySchema, ok: { 200: agentListingsPageSchema }, errors: [403, 404],
  },
  create: { method: 'post', path: '/api/listings', auth: 'agent', tag: 'listings', summary: 'Enter a listing manually', body: listingCreateSchema, ok: { 201: Listing }, errors: [403, 404, 409] },
  publicListing: {
    method: 'get', path: '/api/listings/:mlsId', auth: 'public', tag: 'listings', summary: 'A public listing with its agent (the one /listing/{mlsId} shows)',
    params: z.object({ mlsId: mlsIdParam }), ok: { 200: listingResponseSchema, 304: { contentType: 'application/json', description: 'Not modified (ETag / If-None-Match)' } }, errors: [404],
  },
});

/** Buyers arrive from ads in bursts: a minute fresh, ten more minutes served stale while a cache revalidates. */
export const PUBLIC_LISTING_CACHE = { maxAge: 60, staleWhileRevalidate: 600 } as const;

export function listingsRouter({ caches }: AppDeps): Router {
  const router = new Router();

  route(router, listingsRoutes.agentListings, async (ctx, { params, query }) => {
    const json = await agentListingsPageJson({ caches }, actorOf(ctx), params.id, query);
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, json);
  });

  route(router, listingsRoutes.create, async (ctx, { body: input }) => {
    // The wizard's manual path: draft access is enough (the listing is public once promoted).
    const agent = await getAccessibleAgent(actorOf(ctx), input.agentId, 'draft');
    ctx.status = 201;
    ctx.body = presentListing(await createManualListing(agent.id, input));
  });

  // Public: the listing page's data (spec 001 §7). Public fields only; one listing, one agent (CONTEXT.md).
  route(router, listingsRoutes.publicListing, async (ctx, { params }) => {
    const response = await findListingResponse(params.mlsId);
    if (!response) throw notFound('listing');
    if (answerConditionally(ctx, etagOf(response), PUBLIC_LISTING_CACHE)) return;
    ctx.body = response;
  });

  return router;
}

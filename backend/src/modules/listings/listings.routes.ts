import Router from '@koa/router';
import { z } from 'zod';
import { agentListingsQuerySchema, idParam, listingCreateSchema, mlsIdParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { sendJson } from '../../platform/http/compression';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent } from '../agents';
import { agentListingsPageJson, createManualListing } from './listings.service';
import { presentListing } from './listings.presenter';
import { findListingResponse } from './public-listing';
import { notFound } from '../../platform/errors';
import { answerConditionally, etagOf } from '../../platform/http/conditional';

const AgentListings = { params: z.object({ id: idParam }), query: agentListingsQuerySchema };
const CreateListing = { body: listingCreateSchema };
const PublicListingParams = { params: z.object({ mlsId: mlsIdParam }) };

/** Buyers arrive from ads in bursts: a minute fresh, ten more minutes served stale while a cache revalidates. */
export const PUBLIC_LISTING_CACHE = { maxAge: 60, staleWhileRevalidate: 600 } as const;

export function listingsRouter({ caches }: AppDeps): Router {
  const router = new Router();

  router.get('/api/agents/:id/listings', validate(AgentListings), async (ctx) => {
    const { params, query } = inputOf(ctx, AgentListings);
    const json = await agentListingsPageJson({ caches }, actorOf(ctx), params.id, query);
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, json);
  });

  router.post('/api/listings', validate(CreateListing), async (ctx) => {
    const input = inputOf(ctx, CreateListing).body;
    // The wizard's manual path: draft access is enough (the listing is public once promoted).
    const agent = await getAccessibleAgent(actorOf(ctx), input.agentId, 'draft');
    ctx.status = 201;
    ctx.body = presentListing(await createManualListing(agent.id, input));
  });

  // Public: the listing page's data (spec 001 §7). Public fields only; one listing, one agent (CONTEXT.md).
  router.get('/api/listings/:mlsId', validate(PublicListingParams), async (ctx) => {
    const response = await findListingResponse(inputOf(ctx, PublicListingParams).params.mlsId);
    if (!response) throw notFound('listing');
    if (answerConditionally(ctx, etagOf(response), PUBLIC_LISTING_CACHE)) return;
    ctx.body = response;
  });

  return router;
}

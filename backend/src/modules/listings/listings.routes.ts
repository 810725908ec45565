import Router from '@koa/router';
import { z } from 'zod';
import { agentListingsQuerySchema, idParam, listingCreateSchema, type AgentListingsPage } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent } from '../agents';
import { createManualListing, listAgentListingsPage } from './listings.service';
import { presentListing, presentListingSummary } from './listings.presenter';

const AgentListings = { params: z.object({ id: idParam }), query: agentListingsQuerySchema };
const CreateListing = { body: listingCreateSchema };

export function listingsRouter(_deps: AppDeps): Router {
  const router = new Router();

  router.get('/api/agents/:id/listings', validate(AgentListings), async (ctx) => {
    const { params, query } = inputOf(ctx, AgentListings);
    const page = await listAgentListingsPage(actorOf(ctx), params.id, query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { listings: page.rows.map(presentListingSummary), nextCursor: page.nextCursor } satisfies AgentListingsPage;
  });

  router.post('/api/listings', validate(CreateListing), async (ctx) => {
    const input = inputOf(ctx, CreateListing).body;
    const agent = await getAccessibleAgent(actorOf(ctx), input.agentId);
    ctx.status = 201;
    ctx.body = presentListing(await createManualListing(agent.id, input));
  });

  return router;
}

import Router from '@koa/router';
import { z } from 'zod';
import { idParam, listingCreateSchema } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf } from '../../platform/auth/actor';
import type { AppDeps } from '../../platform/deps';
import { getAccessibleAgent } from '../agents';
import { createManualListing, listAgentListings } from './listings.service';
import { presentListing } from './listings.presenter';

const AgentListings = { params: z.object({ id: idParam }) };
const CreateListing = { body: listingCreateSchema };

export function listingsRouter(_deps: AppDeps): Router {
  const router = new Router();

  router.get('/api/agents/:id/listings', validate(AgentListings), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, AgentListings).params.id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listAgentListings(agent.id)).map(presentListing);
  });

  router.post('/api/listings', validate(CreateListing), async (ctx) => {
    const input = inputOf(ctx, CreateListing).body;
    const agent = await getAccessibleAgent(actorOf(ctx), input.agentId);
    ctx.status = 201;
    ctx.body = presentListing(await createManualListing(agent.id, input));
  });

  return router;
}

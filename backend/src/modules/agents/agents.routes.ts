import Router from '@koa/router';
import { z } from 'zod';
import { agentCreateSchema, idParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf, claimAgent } from '../../platform/auth/actor';
import { forbidden, unauthorized } from '../../platform/errors';
import type { AppDeps } from '../../platform/deps';
import { createAgent, createMlsAgent, findAgent, getAccessibleAgent, listAccessibleAgents } from './agents.service';
import { presentAgent } from './agents.presenter';
import { foundMlsMember } from './mls-found';

const AgentIdParams = z.object({ id: idParam });
const CreateAgent = { body: agentCreateSchema };

export function agentsRouter(_deps: AppDeps): Router {
  const router = new Router();

  router.post('/api/agents', validate(CreateAgent), async (ctx) => {
    const input = inputOf(ctx, CreateAgent).body;
    let agent;
    let created = true;
    if (input.manualEntry === true) {
      agent = await createAgent(input);
    } else {
      // The schema guarantees an mlsId here; it must be one this session found with the MLS search.
      const found = foundMlsMember(ctx, input.mlsId!);
      if (!found) throw forbidden('agents.mls_search_required', 'Please search for your name in the MLS first: this MLS ID was not found in this session.');
      ({ agent, created } = await createMlsAgent(actorOf(ctx), found, input));
    }
    claimAgent(ctx, agent.id);
    ctx.status = created ? 201 : 200;
    ctx.body = presentAgent(agent);
  });

  router.get('/api/agents', async (ctx) => {
    ctx.body = (await listAccessibleAgents(actorOf(ctx))).map(presentAgent);
  });

  router.get('/api/agents/:id', validate({ params: AgentIdParams }), async (ctx) => {
    const { params } = inputOf(ctx, { params: AgentIdParams });
    ctx.body = presentAgent(await getAccessibleAgent(actorOf(ctx), params.id));
  });

  router.get('/api/auth/me', async (ctx) => {
    const { loggedInAgentId } = actorOf(ctx);
    const agent = loggedInAgentId ? await findAgent(loggedInAgentId) : undefined;
    if (!agent) throw unauthorized();
    ctx.body = { id: agent.id, name: agent.name };
  });

  return router;
}

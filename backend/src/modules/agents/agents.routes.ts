import Router from '@koa/router';
import { z } from 'zod';
import { agentCreateSchema, agentUpdateSchema, idParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf, claimAgent, isImpersonating, type SessionData } from '../../platform/auth/actor';
import { forbidden, impersonationRefused } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { createAgent, createMlsAgent, getAccessibleAgent, listAccessibleAgents } from './agents.service';
import { updateAgent } from './account.service';
import { addAuthRoutes } from './auth.routes';
import { presentAgent } from './agents.presenter';
import { foundMlsMember } from './mls-found';

const AgentIdParams = z.object({ id: idParam });
const CreateAgent = { body: agentCreateSchema };
const UpdateAgent = { params: AgentIdParams, body: agentUpdateSchema };

export function agentsRouter(deps: AppDeps): Router {
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

  // Branding (wizard step 4), profile edit (dashboard) and account setup (email + password).
  router.put('/api/agents/:id', validate(UpdateAgent), async (ctx) => {
    const { params, body } = inputOf(ctx, UpdateAgent);
    const current = await getAccessibleAgent(actorOf(ctx), params.id);
    // Login As (DESIGN §3): the admin may edit the profile as the agent, never its password or email.
    if (isImpersonating(ctx)) {
      const emailChanges = body.email !== undefined && (body.email ?? '').toLowerCase() !== (current.email ?? '').toLowerCase();
      if (body.password !== undefined || emailChanges) throw impersonationRefused();
    }
    const { agent, accountCreated } = await updateAgent(current, body);
    if (accountCreated) {
      // From now on this agent is reached by logging in (mayAccessAgent): this browser is logged in
      // as it, under a new session id (DESIGN §3), and keeps the agents it created.
      await ctx.session!.regenerate();
      (ctx.session as unknown as SessionData).agentId = agent.id;
      await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'agent.account_setup', targetType: 'agent', targetId: agent.id }, ctx);
    }
    ctx.body = presentAgent(agent);
  });

  addAuthRoutes(router, deps);

  return router;
}

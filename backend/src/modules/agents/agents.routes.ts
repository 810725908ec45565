import crypto from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { agentCreateSchema, agentUpdateSchema, idParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf, claimAgent, isImpersonating, sessionOf } from '../../platform/auth/actor';
import { consumeRateLimit, rateLimit } from '../../platform/http/rate-limit';
import { forbidden, impersonationRefused } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { createAgent, createMlsAgent, getAccessibleAgent, listAccessibleAgents } from './agents.service';
import { updateAgent } from './account.service';
import { VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT, VERIFICATION_EMAIL_IP_RATE_LIMIT } from './auth.routes';
import { addAuthRoutes } from './auth.routes';
import { addGoogleLoginRoutes } from './google-login.routes';
import { addApiKeyRoutes } from './api-keys.routes';
import { presentAgent } from './agents.presenter';
import { foundMlsMember } from './mls-found';

const AgentIdParams = z.object({ id: idParam });

/** Agent creation per client address: a wizard makes one or two; a flood fills the database. */
export const AGENT_CREATE_RATE_LIMIT = { points: 100, durationSeconds: 10 * 60 } as const;
const CreateAgent = { body: agentCreateSchema };
const UpdateAgent = { params: AgentIdParams, body: agentUpdateSchema };

export function agentsRouter(deps: AppDeps): Router {
  const router = new Router();

  router.post('/api/agents', rateLimit({ name: 'agent-create', ...AGENT_CREATE_RATE_LIMIT }), validate(CreateAgent), async (ctx) => {
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
    const agent = await getAccessibleAgent(actorOf(ctx), params.id);
    // Login As (DESIGN §6): the admin may edit the profile as the agent, never its password or login email.
    if (isImpersonating(ctx)) {
      const emailChanges = body.email !== undefined && (body.email ?? '').toLowerCase() !== (agent.email ?? '').toLowerCase();
      if (body.password !== undefined || emailChanges) throw impersonationRefused();
    }
    const sendsLink = body.password !== undefined || (agent.hasPassword && !!body.email && body.email !== (agent.email ?? '').toLowerCase());
    if (sendsLink) {
      // Each of these emails a link: bounded per client and per address (no mail bombing through us).
      await consumeRateLimit(deps.db, { name: 'verification-email-ip', ...VERIFICATION_EMAIL_IP_RATE_LIMIT }, ctx.ip);
      await consumeRateLimit(deps.db, { name: 'verification-email-address', ...VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT }, body.email!);
    }
    const session = sessionOf(ctx);
    if (sendsLink) session.verifyNonce ??= crypto.randomBytes(24).toString('base64url');
    const result = await updateAgent(deps, agent, body, { impersonated: isImpersonating(ctx), requesterNonce: session.verifyNonce });
    if (result.kind === 'verification_sent') {
      // DESIGN §6: no password until the owner of the email opens the link; this session keeps its wizard access.
      await audit(deps.db, { actorType: 'visitor', action: 'agent.account_setup_requested', targetType: 'agent', targetId: agent.id }, ctx);
      ctx.status = 202;
      ctx.body = result.sent;
      return;
    }
    ctx.body = result.kind === 'email_change_sent' ? { ...presentAgent(result.agent), pendingEmail: result.sent.email } : presentAgent(result.agent);
  });

  addAuthRoutes(router, deps);
  addGoogleLoginRoutes(router, deps);
  addApiKeyRoutes(router, deps);

  return router;
}

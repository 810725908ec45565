import type Router from '@koa/router';
import { z } from 'zod';
import { apiKeyCreateSchema, apiKeyParamsSchema, idParam, type ApiMe } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { impersonationRefused } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { findAgent, getAccessibleAgent } from './agents.service';
import { apiKeyInvalid } from './agents.errors';
import { apiKeyPrincipal, createApiKey, listApiKeys, requireApiKey, revokeApiKey } from './api-keys';

const AgentIdParams = z.object({ id: idParam });
const CreateKey = { params: AgentIdParams, body: apiKeyCreateSchema };

/**
 * API keys on the dashboard (the agent's own, through the access rule) and GET /api/v1/me. Creating and
 * revoking are audited; an admin's Login As may do neither (DESIGN §6: no keys or secrets under impersonation).
 */
export function addApiKeyRoutes(router: Router, deps: AppDeps): void {
  router.get('/api/agents/:id/api-keys', validate({ params: AgentIdParams }), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, { params: AgentIdParams }).params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listApiKeys(deps.db, agent.id);
  });

  router.post('/api/agents/:id/api-keys', validate(CreateKey), async (ctx) => {
    const { params, body } = inputOf(ctx, CreateKey);
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    const created = await createApiKey(deps.db, agent.id, body);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'api_key.created', targetType: 'api_key', targetId: created.id, details: { name: created.name, scopes: created.scopes, prefix: created.prefix } }, ctx);
    // The key is in this answer only.
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = created;
  });

  router.delete('/api/agents/:id/api-keys/:keyId', validate({ params: apiKeyParamsSchema }), async (ctx) => {
    const { params } = inputOf(ctx, { params: apiKeyParamsSchema });
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    const revoked = await revokeApiKey(deps.db, agent.id, params.keyId);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'api_key.revoked', targetType: 'api_key', targetId: revoked.id, details: { name: revoked.name, prefix: revoked.prefix } }, ctx);
    ctx.body = revoked;
  });

  // Public API: who this key belongs to (an integration's connection test and label).
  router.get('/api/v1/me', requireApiKey(deps), async (ctx) => {
    const key = apiKeyPrincipal(ctx);
    const agent = await findAgent(key.agentId);
    if (!agent) throw apiKeyInvalid();
    ctx.body = {
      id: agent.id,
      name: agent.name,
      email: agent.email,
      brokerage: agent.brokerage,
      state: agent.state,
      apiKey: { id: key.id, name: key.name, scopes: key.scopes },
    } satisfies ApiMe;
  });
}

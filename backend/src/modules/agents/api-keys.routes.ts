import type Router from '@koa/router';
import { z } from 'zod';
import { apiKeyCreateSchema, apiKeyCreatedSchema, apiKeyParamsSchema, apiKeyViewSchema, apiMeSchema, idParam, type ApiMe } from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { impersonationRefused } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { findAgent, getAccessibleAgent } from './agents.service';
import { apiKeyInvalid } from './agents.errors';
import { apiKeyPrincipal, createApiKey, listApiKeys, requireApiKey, revokeApiKey } from './api-keys';

const AgentIdParams = z.object({ id: idParam });
const ApiKey = apiKeyViewSchema.meta({ id: 'ApiKey' });

export const apiKeysRoutes = defineRoutes({
  list: {
    method: 'get', path: '/api/agents/:id/api-keys', auth: 'agent', tag: 'api-keys', summary: "The agent's API keys (never the keys themselves)",
    params: AgentIdParams, ok: { 200: z.array(ApiKey) }, errors: [403, 404],
  },
  create: {
    method: 'post', path: '/api/agents/:id/api-keys', auth: 'agent', tag: 'api-keys', summary: 'Create an API key (the key is in this answer only)', params: AgentIdParams, body: apiKeyCreateSchema,
    description: "Scopes: `leads:read` (GET /api/v1/leads) and `hooks:write` (REST hooks). At most 10 keys per agent. An admin's Login As may not create keys.",
    ok: { 201: apiKeyCreatedSchema }, errors: [403, 404, 409],
  },
  revoke: {
    method: 'delete', path: '/api/agents/:id/api-keys/:keyId', auth: 'agent', tag: 'api-keys', summary: 'Revoke an API key: the next request with it is refused',
    params: apiKeyParamsSchema, ok: { 200: ApiKey }, errors: [403, 404],
  },
  me: { method: 'get', path: '/api/v1/me', auth: 'apiKey', tag: 'public-api', summary: "The key's agent (an integration's connection test)", ok: { 200: apiMeSchema }, errors: [401, 429] },
});

/**
 * API keys on the dashboard (the agent's own, through the access rule) and GET /api/v1/me. Creating and
 * revoking are audited; an admin's Login As may do neither (DESIGN §6: no keys or secrets under impersonation).
 */
export function addApiKeyRoutes(router: Router, deps: AppDeps): void {
  route(router, apiKeysRoutes.list, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listApiKeys(deps.db, agent.id);
  });

  route(router, apiKeysRoutes.create, async (ctx, { params, body }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    const created = await createApiKey(deps.db, agent.id, body);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'api_key.created', targetType: 'api_key', targetId: created.id, details: { name: created.name, scopes: created.scopes, prefix: created.prefix } }, ctx);
    // The key is in this answer only.
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = created;
  });

  route(router, apiKeysRoutes.revoke, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    if (isImpersonating(ctx)) throw impersonationRefused();
    const revoked = await revokeApiKey(deps.db, agent.id, params.keyId);
    await audit(deps.db, { actorType: 'agent', actorId: agent.id, action: 'api_key.revoked', targetType: 'api_key', targetId: revoked.id, details: { name: revoked.name, prefix: revoked.prefix } }, ctx);
    ctx.body = revoked;
  });

  // Public API: who this key belongs to (an integration's connection test and label).
  route(router, apiKeysRoutes.me, requireApiKey(deps), async (ctx) => {
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

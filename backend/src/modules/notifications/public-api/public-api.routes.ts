import type Router from '@koa/router';
import { z } from 'zod';
import { agentHookParamsSchema, apiLeadsPageSchema, apiLeadsQuerySchema, hookCreateSchema, hookCreatedSchema, hookParamsSchema, hookViewSchema, idParam, makeHookCreateSchema } from '@app/contracts';
import { configured, defineRoutes, route } from '../../../platform/http/route';
import { actorOf, isImpersonating } from '../../../platform/auth/actor';
import { impersonationRefused } from '../../../platform/errors';
import type { AppDeps } from '../../../platform/deps';
import { apiKeyPrincipal, getAccessibleAgent, requireApiKey } from '../../agents';
import { listHooks, subscribeHook, unsubscribeHook } from '../hooks/hooks.service';
import { deliveryTransports } from '../delivery/delivery-deps';
import { publicLeadsPage } from './public-leads';

const AgentIdParams = z.object({ id: idParam });
const noContent = { contentType: 'application/json', description: 'Done (no body)' };

export const publicApiRoutes = defineRoutes({
  hooks: {
    method: 'get', path: '/api/agents/:id/hooks', auth: 'agent', tag: 'api-keys', summary: 'The REST hooks integrations subscribed for the agent (URLs masked)',
    params: AgentIdParams, ok: { 200: z.array(hookViewSchema) }, errors: [403, 404],
  },
  removeHook: {
    method: 'delete', path: '/api/agents/:id/hooks/:hookId', auth: 'agent', tag: 'api-keys', summary: 'Remove a subscribed REST hook',
    params: agentHookParamsSchema, ok: { 204: noContent }, errors: [403, 404],
  },
  leads: {
    method: 'get', path: '/api/v1/leads', auth: 'apiKey', tag: 'public-api', summary: "The key's agent's leads, newest first (scope leads:read)", query: apiLeadsQuerySchema,
    description: 'Each lead is the `data` of the lead.created event a subscribed hook receives. Pass `nextCursor` back as `cursor` for the next page.',
    ok: { 200: apiLeadsPageSchema.meta({ id: 'ApiLeadsPage' }) }, errors: [401, 403, 429],
  },
  subscribe: {
    method: 'post', path: '/api/v1/hooks', auth: 'apiKey', tag: 'public-api', summary: 'Subscribe a REST hook to lead.created (scope hooks:write)', body: hookCreateSchema,
    description:
      'Each new lead is POSTed to `targetUrl` as the lead.created webhook, signed per Standard Webhooks with the `secret` of this answer, retried on the ' +
      'schedule, logged on the dashboard. A `410 Gone` answer unsubscribes the hook. Subscribing the same URL again answers the same hook.',
    ok: { 201: hookCreatedSchema }, errors: [401, 403, 409, 429],
  },
  unsubscribe: {
    method: 'delete', path: '/api/v1/hooks/:id', auth: 'apiKey', tag: 'public-api', summary: 'Unsubscribe a REST hook (scope hooks:write)',
    params: hookParamsSchema, ok: { 204: noContent }, errors: [401, 403, 404, 429],
  },
});

/**
 * The public API's lead routes (/api/v1, API keys: agents module) and the dashboard's list of the REST hooks.
 * A key reads and changes only its own agent's leads and hooks: another agent's hook id is a 404.
 */
export function addPublicApiRoutes(router: Router, deps: AppDeps): void {
  const box = () => deliveryTransports(deps.config).box;
  const subscribe = configured(publicApiRoutes.subscribe, { body: makeHookCreateSchema({ allowPlainHttp: deps.config.OUTBOUND_ALLOW_LOOPBACK }) });

  route(router, publicApiRoutes.leads, requireApiKey(deps, 'leads:read'), async (ctx, { query }) => {
    ctx.body = await publicLeadsPage(deps.db, apiKeyPrincipal(ctx).agentId, query);
  });

  route(router, subscribe, requireApiKey(deps, 'hooks:write'), async (ctx, { body }) => {
    const key = apiKeyPrincipal(ctx);
    ctx.status = 201;
    ctx.body = await subscribeHook(deps.db, box(), key.agentId, key.id, body);
  });

  route(router, publicApiRoutes.unsubscribe, requireApiKey(deps, 'hooks:write'), async (ctx, { params }) => {
    await unsubscribeHook(deps.db, apiKeyPrincipal(ctx).agentId, params.id);
    ctx.status = 204;
  });

  // The dashboard: which integrations subscribed, and a way to remove one.
  route(router, publicApiRoutes.hooks, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listHooks(deps.db, agent.id);
  });

  route(router, publicApiRoutes.removeHook, async (ctx, { params }) => {
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    // Login As cannot change integrations.
    if (isImpersonating(ctx)) throw impersonationRefused();
    await unsubscribeHook(deps.db, agent.id, params.hookId);
    ctx.status = 204;
  });
}

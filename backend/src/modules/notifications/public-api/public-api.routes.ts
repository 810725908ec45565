import type Router from '@koa/router';
import { z } from 'zod';
import { agentHookParamsSchema, apiLeadsQuerySchema, hookParamsSchema, idParam, makeHookCreateSchema } from '@app/contracts';
import { validate, inputOf } from '../../../platform/http/validate';
import { actorOf, isImpersonating } from '../../../platform/auth/actor';
import { impersonationRefused } from '../../../platform/errors';
import type { AppDeps } from '../../../platform/deps';
import { apiKeyPrincipal, getAccessibleAgent, requireApiKey } from '../../agents';
import { listHooks, subscribeHook, unsubscribeHook } from '../hooks/hooks.service';
import { deliveryTransports } from '../delivery/delivery-deps';
import { publicLeadsPage } from './public-leads';

const AgentIdParams = z.object({ id: idParam });

/**
 * The public API's lead routes (/api/v1, API keys: agents module) and the dashboard's list of the REST hooks.
 * A key reads and changes only its own agent's leads and hooks: another agent's hook id is a 404.
 */
export function addPublicApiRoutes(router: Router, deps: AppDeps): void {
  const box = () => deliveryTransports(deps.config).box;
  const Subscribe = { body: makeHookCreateSchema({ allowPlainHttp: deps.config.OUTBOUND_ALLOW_LOOPBACK }) };
  const Leads = { query: apiLeadsQuerySchema };

  router.get('/api/v1/leads', requireApiKey(deps, 'leads:read'), validate(Leads), async (ctx) => {
    ctx.body = await publicLeadsPage(deps.db, apiKeyPrincipal(ctx).agentId, inputOf(ctx, Leads).query);
  });

  router.post('/api/v1/hooks', requireApiKey(deps, 'hooks:write'), validate(Subscribe), async (ctx) => {
    const key = apiKeyPrincipal(ctx);
    ctx.status = 201;
    ctx.body = await subscribeHook(deps.db, box(), key.agentId, key.id, inputOf(ctx, Subscribe).body);
  });

  router.delete('/api/v1/hooks/:id', requireApiKey(deps, 'hooks:write'), validate({ params: hookParamsSchema }), async (ctx) => {
    await unsubscribeHook(deps.db, apiKeyPrincipal(ctx).agentId, inputOf(ctx, { params: hookParamsSchema }).params.id);
    ctx.status = 204;
  });

  // The dashboard: which integrations subscribed, and a way to remove one.
  router.get('/api/agents/:id/hooks', validate({ params: AgentIdParams }), async (ctx) => {
    const agent = await getAccessibleAgent(actorOf(ctx), inputOf(ctx, { params: AgentIdParams }).params.id, 'signed_in');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listHooks(deps.db, agent.id);
  });

  router.delete('/api/agents/:id/hooks/:hookId', validate({ params: agentHookParamsSchema }), async (ctx) => {
    const { params } = inputOf(ctx, { params: agentHookParamsSchema });
    const agent = await getAccessibleAgent(actorOf(ctx), params.id, 'signed_in');
    // Login As cannot change integrations.
    if (isImpersonating(ctx)) throw impersonationRefused();
    await unsubscribeHook(deps.db, agent.id, params.hookId);
    ctx.status = 204;
  });
}

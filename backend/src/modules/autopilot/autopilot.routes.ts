import Router from '@koa/router';
import { z } from 'zod';
import { autopilotLinkParams, autopilotRunParams, autopilotSettingsInputSchema, idParam } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { impersonationRefused } from '../../platform/errors';
import type { AppDeps } from '../../platform/deps';
import { autopilotDeps } from './deps';
import { actOnRun, autopilotView, updateAutopilot } from './autopilot.service';
import { peekLink, useLink } from './links';

const AgentParams = { params: z.object({ id: idParam }) };
const Settings = { params: z.object({ id: idParam }), body: autopilotSettingsInputSchema };
const RunAction = { params: autopilotRunParams };
const Link = { params: autopilotLinkParams };

/** Link uses per client address (a token is unguessable; this keeps a scanner or a bot from hammering). */
export const LINK_RATE_LIMIT = { points: 30, durationSeconds: 10 * 60 } as const;

export function autopilotRouter(app: AppDeps): Router {
  const router = new Router();
  const deps = () => autopilotDeps(app);

  router.get('/api/agents/:id/autopilot', validate(AgentParams), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await autopilotView(deps(), actorOf(ctx), inputOf(ctx, AgentParams).params.id);
  });

  // Owner only: autopilot charges the agent's card, so an admin's Login As may look but not change it.
  router.put('/api/agents/:id/autopilot', validate(Settings), async (ctx) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    const { params, body } = inputOf(ctx, Settings);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await updateAutopilot(deps(), actorOf(ctx), params.id, body);
  });

  router.post('/api/agents/:id/autopilot/runs/:runId/:action', validate(RunAction), async (ctx) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    const { id, runId, action } = inputOf(ctx, RunAction).params;
    ctx.body = await actOnRun(deps(), actorOf(ctx), id, runId, action);
  });

  // The emailed one-tap links: no login; the signed token is the authority.
  router.get('/api/autopilot/links/:token', rateLimit({ name: 'autopilot-link', ...LINK_RATE_LIMIT }), validate(Link), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await peekLink(deps(), inputOf(ctx, Link).params.token);
  });

  router.post('/api/autopilot/links/:token', rateLimit({ name: 'autopilot-link', ...LINK_RATE_LIMIT }), validate(Link), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await useLink(deps(), ctx, inputOf(ctx, Link).params.token);
  });

  return router;
}

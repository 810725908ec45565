import Router from '@koa/router';
import { z } from 'zod';
import {
  autopilotLinkParams,
  autopilotLinkResultSchema,
  autopilotLinkViewSchema,
  autopilotRunParams,
  autopilotRunSchema,
  autopilotSettingsInputSchema,
  autopilotViewSchema,
  idParam,
} from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf, isImpersonating } from '../../platform/auth/actor';
import { impersonationRefused } from '../../platform/errors';
import type { AppDeps } from '../../platform/deps';
import { autopilotDeps } from './deps';
import { actOnRun, autopilotView, updateAutopilot } from './autopilot.service';
import { peekLink, useLink } from './links';

const id = z.object({ id: idParam });

/** Autopilot (DESIGN §7). */
export const autopilotRoutes = defineRoutes({
  view: {
    method: 'get', path: '/api/agents/:id/autopilot', auth: 'agent', tag: 'autopilot', summary: "The agent's autopilot: settings, saved card, scheduled drafts and history",
    params: id, ok: { 200: autopilotViewSchema }, errors: [403, 404],
  },
  update: {
    method: 'put', path: '/api/agents/:id/autopilot', auth: 'agent', tag: 'autopilot', summary: 'Change any of the settings (`{"enabled": true}` alone turns it on with the defaults)',
    description: "Owner only (refused to an admin's Login As). 409 `autopilot.needs_mls` for an agent without an MLS identity.", params: id, body: autopilotSettingsInputSchema,
    ok: { 200: autopilotViewSchema }, errors: [403, 404, 409],
  },
  runAction: {
    method: 'post', path: '/api/agents/:id/autopilot/runs/:runId/:action', auth: 'agent', tag: 'autopilot', summary: 'Launch now, skip a draft, or resume a paused ad (the dashboard\'s buttons)',
    params: autopilotRunParams, ok: { 200: autopilotRunSchema }, errors: [403, 404, 409],
  },
  peekLink: {
    method: 'get', path: '/api/autopilot/links/:token', auth: 'public', tag: 'autopilot', summary: 'What an emailed one-tap link does (no login; signed, single use, expiring)',
    params: autopilotLinkParams, ok: { 200: autopilotLinkViewSchema }, errors: [404, 410, 429],
  },
  useLink: {
    method: 'post', path: '/api/autopilot/links/:token', auth: 'public', tag: 'autopilot', summary: 'Use an emailed one-tap link: Launch now, Skip, Resume; Edit, card and confirm log the browser in',
    params: autopilotLinkParams, ok: { 200: autopilotLinkResultSchema }, errors: [404, 409, 410, 429],
  },
});

/** Link uses per client address (a token is unguessable; this keeps a scanner or a bot from hammering). */
export const LINK_RATE_LIMIT = { points: 30, durationSeconds: 10 * 60 } as const;

export function autopilotRouter(app: AppDeps): Router {
  const router = new Router();
  const deps = () => autopilotDeps(app);

  route(router, autopilotRoutes.view, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await autopilotView(deps(), actorOf(ctx), params.id);
  });

  // Owner only: autopilot charges the agent's card, so an admin's Login As may look but not change it.
  route(router, autopilotRoutes.update, async (ctx, { params, body }) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await updateAutopilot(deps(), actorOf(ctx), params.id, body);
  });

  route(router, autopilotRoutes.runAction, async (ctx, { params: { id, runId, action } }) => {
    if (isImpersonating(ctx)) throw impersonationRefused();
    ctx.body = await actOnRun(deps(), actorOf(ctx), id, runId, action);
  });

  // The emailed one-tap links: no login; the signed token is the authority.
  route(router, autopilotRoutes.peekLink, rateLimit({ name: 'autopilot-link', ...LINK_RATE_LIMIT }), async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await peekLink(deps(), params.token);
  });

  route(router, autopilotRoutes.useLink, rateLimit({ name: 'autopilot-link', ...LINK_RATE_LIMIT }), async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await useLink(deps(), ctx, params.token);
  });

  return router;
}

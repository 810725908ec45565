import crypto from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import {
  adminAgentIdParams,
  adminAgentsPageSchema,
  adminAgentsQuerySchema,
  adminCampaignIdParams,
  adminCampaignMetricsSchema,
  adminFailedWorkSchema,
  adminLoginSchema,
  adminMetricsQuerySchema,
  adminRetryJobSchema,
  ADMIN_METRICS_MAX,
  okResponseSchema,
} from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { consumeRateLimit, limiterFor } from '../../platform/http/rate-limit';
import { notFound, tooManyRequests } from '../../platform/errors';
import { audit } from '../../platform/audit';
import { isImpersonating, sessionOf, type SessionData } from '../../platform/auth/actor';
import { adminSessionRemainingMs, endAdminSession, requireAdmin, startAdminSession } from '../../platform/http/admin-session';
import { listFailed, retryFailedJob } from '../../platform/jobs/ops';
import type { AppDeps } from '../../platform/deps';
import { adminNotConfigured, invalidAdminPassword } from './admin.errors';
import { findAgent, listAgentsForAdmin } from '../agents';
import { autopilotStatesForAdmin } from '../autopilot';
import { campaignMetrics, campaignsOfAgents, listFailedLaunches, relaunchCampaign } from '../campaigns';
import { presentAgentsPage, presentFailedWork } from './admin.presenter';
import { recordRateLimitRefusal } from '../../platform/metrics';

/** Failed admin logins per client address: after 5 in 15 minutes, 429 with Retry-After (successes do not count). */
const LOGIN_FAILURES = { name: 'admin-login-failures', points: 5, durationSeconds: 15 * 60 };

/** Refuse a client whose failures used up the budget, before looking at the password. */
function refuseWhileLimited(db: AppDeps['db']) {
  return async (ctx: import('koa').Context, next: import('koa').Next) => {
    const res = await limiterFor(db, LOGIN_FAILURES).get(ctx.ip);
    if (res && res.consumedPoints >= LOGIN_FAILURES.points) {
      recordRateLimitRefusal(LOGIN_FAILURES.name);
      throw tooManyRequests(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
    await next();
  };
}

/** The admin's routes: the la.admin session of POST /api/admin/login (platform/http/admin-session.ts). */
export const adminRoutes = defineRoutes({
  login: {
    method: 'post', path: '/api/admin/login', auth: 'public', tag: 'admin', summary: 'Admin login (ADMIN_PASSWORD)',
    body: adminLoginSchema, ok: { 200: okResponseSchema }, errors: [401, 429, 503],
  },
  logout: { method: 'post', path: '/api/admin/logout', auth: 'admin-optional', tag: 'admin', summary: 'End the admin session', ok: { 200: okResponseSchema } },
  agents: {
    method: 'get', path: '/api/admin/agents', auth: 'admin', tag: 'admin', summary: 'Agents with their campaigns, filtered, sorted and paged, with totals',
    query: adminAgentsQuerySchema, ok: { 200: adminAgentsPageSchema }, errors: [401],
  },
  metrics: {
    method: 'get', path: '/api/admin/facebook-metrics', auth: 'admin', tag: 'admin', summary: 'Impressions and clicks per campaign (the given ids, or the newest 500 launched)',
    query: adminMetricsQuerySchema, ok: { 200: z.array(adminCampaignMetricsSchema) }, errors: [401],
  },
  loginAs: {
    method: 'get', path: '/api/admin/login-as/:agentId', auth: 'admin', tag: 'admin', summary: "Login As: this browser's agent session becomes the agent's (audited)", params: adminAgentIdParams,
    ok: { 302: { contentType: 'text/html', description: 'To /dashboard, as the agent' } }, errors: [401, 404],
  },
  endImpersonation: {
    method: 'post', path: '/api/admin/end-impersonation', auth: 'agent-optional', tag: 'admin', summary: "End an admin's Login As (the dashboard banner; works after the admin session expired)",
    ok: { 200: okResponseSchema },
  },
  failedWork: { method: 'get', path: '/api/admin/failed-work', auth: 'admin', tag: 'admin', summary: 'Failed launches and failed or dead-lettered jobs', ok: { 200: adminFailedWorkSchema }, errors: [401] },
  relaunch: {
    method: 'post', path: '/api/admin/failed-work/launches/:id/retry', auth: 'admin', tag: 'admin', summary: 'Relaunch a campaign whose launch failed (audited)',
    params: adminCampaignIdParams, ok: { 200: okResponseSchema.extend({ campaignId: z.number() }) }, errors: [401, 404, 409],
  },
  retryJob: {
    method: 'post', path: '/api/admin/failed-work/jobs/retry', auth: 'admin', tag: 'admin', summary: 'Put a failed job back in its queue (audited)',
    body: adminRetryJobSchema, ok: { 200: okResponseSchema }, errors: [401, 404],
  },
});

/** Compare digests so neither the content nor the length of the password leaks through timing. */
function passwordMatches(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function adminRouter({ config, db, queue, caches }: AppDeps): Router {
  const router = new Router();
  const admin = requireAdmin(db);

  route(router, adminRoutes.login, refuseWhileLimited(db), async (ctx, { body: { password } }) => {
    if (!config.ADMIN_PASSWORD) throw adminNotConfigured();
    const ok = passwordMatches(password, config.ADMIN_PASSWORD);
    await audit(db, { actorType: 'admin', action: ok ? 'admin.login' : 'admin.login_failed' }, ctx);
    if (!ok) {
      // Counted in PostgreSQL, shared by every process; the 6th failure in the window is already a 429.
      await consumeRateLimit(db, LOGIN_FAILURES, ctx.ip);
      throw invalidAdminPassword();
    }
    // Its own cookie and row, under a new id; the agent session of this browser is left as it is.
    await startAdminSession(ctx, db);
    ctx.body = { ok: true };
  });

  route(router, adminRoutes.logout, async (ctx) => {
    await endAdminSession(ctx, db);
    ctx.body = { ok: true };
  });

  // Ends an admin's Login As from the agent dashboard's banner; works after the admin session expired.
  route(router, adminRoutes.endImpersonation, async (ctx) => {
    if (isImpersonating(ctx)) {
      const agentId = sessionOf(ctx).agentId;
      await audit(db, { actorType: 'admin', action: 'admin.login_as_ended', targetType: 'agent', targetId: agentId }, ctx);
      ctx.session = null;
    }
    ctx.body = { ok: true };
  });

  route(router, adminRoutes.agents, admin, async (ctx, { query: q }) => {
    const list = await listAgentsForAdmin({ db, caches }, q);
    const ids = list.rows.map((r) => r.id);
    const [campaigns, autopilot] = await Promise.all([campaignsOfAgents({ db }, ids), autopilotStatesForAdmin(db, ids)]);
    ctx.body = presentAgentsPage(list, campaigns, q, autopilot);
  });

  route(router, adminRoutes.metrics, admin, async (ctx, { query: { campaignIds } }) => {
    ctx.body = await campaignMetrics({ db }, { campaignIds, limit: ADMIN_METRICS_MAX });
  });

  route(router, adminRoutes.loginAs, admin, async (ctx, { params: { agentId } }) => {
    const agent = await findAgent(agentId);
    if (!agent) throw notFound('agent');
    // The browser's agent session becomes this agent's, under a new id, marked as an impersonation. It lives as
    // long as the admin session it came from (platform/http/impersonation.ts checks it on every request).
    const adminSid = ctx.state.adminSessionId as string;
    await ctx.session!.regenerate();
    const s = ctx.session as unknown as SessionData;
    s.agentId = agent.id;
    s.impersonatedBy = 'admin';
    s.impersonationStartedAt = new Date().toISOString();
    s.impersonationAdminSid = adminSid;
    ctx.session!.maxAge = Math.max(1000, await adminSessionRemainingMs(db, adminSid));
    await audit(db, { actorType: 'admin', action: 'admin.login_as', targetType: 'agent', targetId: agent.id }, ctx);
    ctx.redirect('/dashboard');
  });

  route(router, adminRoutes.failedWork, admin, async (ctx) => {
    const [launches, jobs] = await Promise.all([listFailedLaunches({ db }), listFailed(db, { limit: 100 })]);
    ctx.body = presentFailedWork(launches, jobs);
  });

  route(router, adminRoutes.relaunch, admin, async (ctx, { params: { id } }) => {
    const result = await relaunchCampaign({ db, boss: queue.boss }, id, 'relaunched by admin');
    await audit(db, { actorType: 'admin', action: 'admin.campaign_relaunch', targetType: 'campaign', targetId: id }, ctx);
    ctx.body = { ok: true, campaignId: result.campaignId };
  });

  route(router, adminRoutes.retryJob, admin, async (ctx, { body: { queue: name, id } }) => {
    const ok = await retryFailedJob(db, queue.boss, name, id);
    if (!ok) throw notFound('job', 'admin');
    await audit(db, { actorType: 'admin', action: 'admin.job_retry', targetType: 'job', targetId: id, details: { queue: name } }, ctx);
    ctx.body = { ok: true };
  });

  return router;
}

import crypto from 'node:crypto';
import Router from '@koa/router';
import {
  adminAgentIdParams,
  adminAgentsQuerySchema,
  adminCampaignIdParams,
  adminLoginSchema,
  adminMetricsQuerySchema,
  adminRetryJobSchema,
  ADMIN_METRICS_MAX,
} from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { consumeRateLimit, limiterFor } from '../../platform/http/rate-limit';
import { notFound, tooManyRequests } from '../../platform/errors';
import { audit } from '../../platform/audit';
import { isImpersonating, sessionOf, type SessionData } from '../../platform/auth/actor';
import { adminSessionRemainingMs, endAdminSession, requireAdmin, startAdminSession } from '../../platform/http/admin-session';
import { listFailed, retryFailedJob } from '../../platform/jobs/ops';
import type { AppDeps } from '../../platform/deps';
import { adminNotConfigured, invalidAdminPassword } from './admin.errors';
import { findAgent, listAgentsForAdmin } from '../agents';
import { campaignMetrics, campaignsOfAgents, listFailedLaunches, relaunchCampaign } from '../campaigns';
import { presentAgentsPage, presentFailedWork } from './admin.presenter';
import { recordRateLimitRefusal } from '../../platform/metrics';

const Login = { body: adminLoginSchema };
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
const AgentsQuery = { query: adminAgentsQuerySchema };
const MetricsQuery = { query: adminMetricsQuerySchema };
const LoginAs = { params: adminAgentIdParams };
const Relaunch = { params: adminCampaignIdParams };
const RetryJob = { body: adminRetryJobSchema };

/** Compare digests so neither the content nor the length of the password leaks through timing. */
function passwordMatches(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function adminRouter({ config, db, queue, caches }: AppDeps): Router {
  const router = new Router();
  const admin = requireAdmin(db);

  router.post('/api/admin/login', refuseWhileLimited(db), validate(Login), async (ctx) => {
    if (!config.ADMIN_PASSWORD) throw adminNotConfigured();
    const { password } = inputOf(ctx, Login).body;
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

  router.post('/api/admin/logout', async (ctx) => {
    await endAdminSession(ctx, db);
    ctx.body = { ok: true };
  });

  // Ends an admin's Login As from the agent dashboard's banner; works after the admin session expired.
  router.post('/api/admin/end-impersonation', async (ctx) => {
    if (isImpersonating(ctx)) {
      const agentId = sessionOf(ctx).agentId;
      await audit(db, { actorType: 'admin', action: 'admin.login_as_ended', targetType: 'agent', targetId: agentId }, ctx);
      ctx.session = null;
    }
    ctx.body = { ok: true };
  });

  router.get('/api/admin/agents', admin, validate(AgentsQuery), async (ctx) => {
    const q = inputOf(ctx, AgentsQuery).query;
    const list = await listAgentsForAdmin({ db, caches }, q);
    const campaigns = await campaignsOfAgents({ db }, list.rows.map((r) => r.id));
    ctx.body = presentAgentsPage(list, campaigns, q);
  });

  router.get('/api/admin/facebook-metrics', admin, validate(MetricsQuery), async (ctx) => {
    const { campaignIds } = inputOf(ctx, MetricsQuery).query;
    ctx.body = await campaignMetrics({ db }, { campaignIds, limit: ADMIN_METRICS_MAX });
  });

  router.get('/api/admin/login-as/:agentId', admin, validate(LoginAs), async (ctx) => {
    const { agentId } = inputOf(ctx, LoginAs).params;
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

  router.get('/api/admin/failed-work', admin, async (ctx) => {
    const [launches, jobs] = await Promise.all([listFailedLaunches({ db }), listFailed(db, { limit: 100 })]);
    ctx.body = presentFailedWork(launches, jobs);
  });

  router.post('/api/admin/failed-work/launches/:id/retry', admin, validate(Relaunch), async (ctx) => {
    const { id } = inputOf(ctx, Relaunch).params;
    const result = await relaunchCampaign({ db, boss: queue.boss }, id, 'relaunched by admin');
    await audit(db, { actorType: 'admin', action: 'admin.campaign_relaunch', targetType: 'campaign', targetId: id }, ctx);
    ctx.body = { ok: true, campaignId: result.campaignId };
  });

  router.post('/api/admin/failed-work/jobs/retry', admin, validate(RetryJob), async (ctx) => {
    const { queue: name, id } = inputOf(ctx, RetryJob).body;
    const ok = await retryFailedJob(db, queue.boss, name, id);
    if (!ok) throw notFound('job', 'admin');
    await audit(db, { actorType: 'admin', action: 'admin.job_retry', targetType: 'job', targetId: id, details: { queue: name } }, ctx);
    ctx.body = { ok: true };
  });

  return router;
}

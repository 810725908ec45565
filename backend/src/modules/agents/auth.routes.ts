import type Router from '@koa/router';
import type { Context } from 'koa';
import { loginSchema } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf, type SessionData } from '../../platform/auth/actor';
import { unauthorized } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { findAgent } from './agents.service';
import { verifyLogin } from './account.service';
import { invalidCredentials } from './agents.errors';
import { dummyPasswordHash } from './passwords';

const Login = { body: loginSchema };

/** Attempts per IP and email tried, and per IP over all emails (spraying). */
export const LOGIN_RATE_LIMIT = { points: 10, durationSeconds: 15 * 60 } as const;
export const LOGIN_IP_RATE_LIMIT = { points: 100, durationSeconds: 15 * 60 } as const;

/** The email as typed, normalised like the schema does, before validation runs. */
function emailTried(ctx: Context): string {
  const email = (ctx.request as { body?: { email?: unknown } }).body?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
}

/** POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me. */
export function addAuthRoutes(router: Router, { db }: AppDeps): void {
  // Made now, so the first unknown-email login is not the one that pays for it.
  void dummyPasswordHash();

  router.post(
    '/api/auth/login',
    rateLimit({ name: 'login-ip', ...LOGIN_IP_RATE_LIMIT }),
    rateLimit({ name: 'login-account', ...LOGIN_RATE_LIMIT, key: emailTried }),
    validate(Login),
    async (ctx) => {
      const { email, password } = inputOf(ctx, Login).body;
      const agent = await verifyLogin(email, password);
      if (!agent) {
        // No email and no password in the log: the attempt and where it came from.
        await audit(db, { actorType: 'visitor', action: 'agent.login_failed' }, ctx);
        throw invalidCredentials();
      }
      // DESIGN §3: a new session id on every login (the wizard's ownership list carries over).
      await ctx.session!.regenerate();
      (ctx.session as unknown as SessionData).agentId = agent.id;
      await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.login', targetType: 'agent', targetId: agent.id }, ctx);
      ctx.body = { id: agent.id, name: agent.name };
    },
  );

  router.post('/api/auth/logout', async (ctx) => {
    const { loggedInAgentId } = actorOf(ctx);
    if (loggedInAgentId) {
      await audit(db, { actorType: 'agent', actorId: loggedInAgentId, action: 'agent.logout', targetType: 'agent', targetId: loggedInAgentId }, ctx);
    }
    // Removes the stored session and clears the cookie.
    ctx.session = null;
    ctx.body = { ok: true };
  });

  router.get('/api/auth/me', async (ctx) => {
    const { loggedInAgentId } = actorOf(ctx);
    const agent = loggedInAgentId ? await findAgent(loggedInAgentId) : undefined;
    if (!agent) throw unauthorized();
    ctx.body = { id: agent.id, name: agent.name };
  });
}

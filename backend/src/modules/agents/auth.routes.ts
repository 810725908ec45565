import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  FORGOT_PASSWORD_SENT_MESSAGE,
  SIGN_IN_LINK_SENT_MESSAGE,
  authAgentSchema,
  changePasswordSchema,
  forgotPasswordSchema,
  forgotPasswordSentSchema,
  loginSchema,
  okResponseSchema,
  resetPasswordSchema,
  signInLinkSchema,
  verifiedSchema,
  verifyEmailSchema,
} from '@app/contracts';
import { defineRoutes, route } from '../../platform/http/route';
import { rateLimit } from '../../platform/http/rate-limit';
import { actorOf, browserKeyOf, hashOf, isImpersonating, type SessionData } from '../../platform/auth/actor';
import { notFound, unauthorized } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { findAgent } from './agents.service';
import { changePassword, requestPasswordReset, resetPassword, verifyEmail, verifyLogin } from './account.service';
import { impersonationRefused, invalidCredentials } from './agents.errors';
import type { Agent } from './agent.model';
import { dummyPasswordHash } from './passwords';
import type { IdentityHooks } from './identity-hooks';
import { sendSignInLinksJob } from './jobs/send-sign-in-links.job';

const Verified = verifiedSchema.meta({ id: 'Verified' });

export const authRoutes = defineRoutes({
  signInLink: {
    method: 'post', path: '/api/auth/sign-in-link', auth: 'public', tag: 'agents', summary: 'Email me a sign-in link (the same answer, in the same time, whatever the address)',
    body: signInLinkSchema, ok: { 202: forgotPasswordSentSchema }, errors: [429],
  },
  login: { method: 'post', path: '/api/auth/login', auth: 'public', tag: 'agents', summary: 'Log in with email and password', body: loginSchema, ok: { 200: authAgentSchema }, errors: [401, 429] },
  logout: { method: 'post', path: '/api/auth/logout', auth: 'agent-optional', tag: 'agents', summary: 'End the session', ok: { 200: okResponseSchema } },
  me: { method: 'get', path: '/api/auth/me', auth: 'agent', tag: 'agents', summary: 'The logged-in agent', ok: { 200: authAgentSchema }, errors: [401] },
  verifyEmail: {
    method: 'post', path: '/api/auth/verify-email', auth: 'public', tag: 'agents', summary: 'Open an emailed link (account setup, sign-in, email change): verifies the address and signs this browser in',
    body: verifyEmailSchema, ok: { 200: Verified }, errors: [429],
  },
  forgotPassword: {
    method: 'post', path: '/api/auth/forgot-password', auth: 'public', tag: 'agents', summary: 'Email a password reset link (the same answer whether or not the email has an account)',
    body: forgotPasswordSchema, ok: { 202: forgotPasswordSentSchema }, errors: [429],
  },
  resetPassword: {
    method: 'post', path: '/api/auth/reset-password', auth: 'public', tag: 'agents', summary: 'Choose a new password with an emailed reset link: logs this browser in',
    body: resetPasswordSchema, ok: { 200: Verified }, errors: [429],
  },
  changePassword: {
    method: 'post', path: '/api/auth/change-password', auth: 'agent', tag: 'agents', summary: 'Change the password (logged in; every other session ends)',
    body: changePasswordSchema, ok: { 200: okResponseSchema }, errors: [401, 403, 429],
  },
});

/** Attempts per IP and email tried, and per IP over all emails (spraying). */
export const LOGIN_RATE_LIMIT = { points: 10, durationSeconds: 15 * 60 } as const;
export const LOGIN_IP_RATE_LIMIT = { points: 100, durationSeconds: 15 * 60 } as const;
/** Emails with a link (account setup, sign-in, email change, password reset): per client address, and per address mailed. */
export const VERIFICATION_EMAIL_IP_RATE_LIMIT = { points: 20, durationSeconds: 60 * 60 } as const;
export const VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT = { points: 5, durationSeconds: 60 * 60 } as const;
/** Opening links (verify, reset): tokens are 256-bit, this only bounds the work a client can cause. */
export const LINK_USE_RATE_LIMIT = { points: 30, durationSeconds: 15 * 60 } as const;
/** Change password: current-password guesses per client and account. */
export const CHANGE_PASSWORD_RATE_LIMIT = { points: 10, durationSeconds: 15 * 60 } as const;

/** The email as typed, normalised like the schema does, before validation runs. */
function emailTried(ctx: Context): string {
  const email = (ctx.request as { body?: { email?: unknown } }).body?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : '';
}

/**
 * Sign this browser in as the agent under a new session id (DESIGN §3); the browser's key and its wizard list
 * carry over (its drafts and campaigns stay its own), an admin's Login As does not.
 */
export async function logIn(ctx: Context, agent: Agent): Promise<void> {
  // koa-session's regenerate keeps the data under the new id.
  await ctx.session!.regenerate();
  const s = ctx.session as unknown as SessionData;
  s.agentId = agent.id;
  delete s.impersonatedBy;
  delete s.impersonationStartedAt;
  delete s.impersonationAdminSid;
}

/**
 * A one-time link emailed to the agent was opened (autopilot's Edit and payment links, DESIGN §3: whoever
 * opens a link sent to the agent's verified address is the agent): this browser is signed in as the agent, under
 * a new session id. Such emails go only to a verified address, so an agent nobody verified (or no longer there)
 * signs nobody in. The link's own checks (signature, expiry, single use) are the caller's.
 */
export async function logInFromEmailLink(ctx: Context, agentId: number): Promise<void> {
  const agent = await findAgent(agentId);
  if (!agent || !agent.verified) throw notFound('agent');
  await logIn(ctx, agent);
}

/**
 * POST /api/auth/login, /logout, GET /api/auth/me, and the account's email links: POST /api/auth/verify-email,
 * /forgot-password, /reset-password, and POST /api/auth/change-password.
 */
export function addAuthRoutes(router: Router, { db, queue }: AppDeps, hooks: IdentityHooks): void {
  // Made now, so the first unknown-email login is not the one that pays for it.
  void dummyPasswordHash();

  route(
    router,
    authRoutes.login,
    rateLimit({ name: 'login-ip', ...LOGIN_IP_RATE_LIMIT }),
    rateLimit({ name: 'login-account', ...LOGIN_RATE_LIMIT, key: emailTried }),
    async (ctx, { body: { email, password } }) => {
      const agent = await verifyLogin(email, password);
      if (!agent) {
        // No email and no password in the log: the attempt and where it came from.
        await audit(db, { actorType: 'visitor', action: 'agent.login_failed' }, ctx);
        throw invalidCredentials();
      }
      // DESIGN §3: a new session id on every login (the wizard's ownership list carries over).
      await logIn(ctx, agent);
      await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.login', targetType: 'agent', targetId: agent.id }, ctx);
      ctx.body = { id: agent.id, name: agent.name };
    },
  );

  // An emailed link (account setup, sign-in, email change): verifies the address and signs this browser in.
  route(router, authRoutes.verifyEmail, rateLimit({ name: 'link-use', ...LINK_USE_RATE_LIMIT }), async (ctx, { body: { token, password } }) => {
    const { agent, purpose, logIn: loggedIn } = await verifyEmail({ db, queue, hooks }, { token, password, browserHash: actorOf(ctx).browserHash });
    if (loggedIn) await logIn(ctx, agent);
    const action = purpose === 'account_setup' ? 'agent.account_setup' : purpose === 'sign_in' ? 'agent.login' : 'agent.email_changed';
    await audit(db, { actorType: 'agent', actorId: agent.id, action, targetType: 'agent', targetId: agent.id, details: { method: 'email_link' } }, ctx);
    ctx.body = { id: agent.id, name: agent.name, purpose, loggedIn };
  });

  // The login page's "Email me a sign-in link": the same answer, in the same time, whatever the address.
  route(
    router,
    authRoutes.signInLink,
    rateLimit({ name: 'verification-email-ip', ...VERIFICATION_EMAIL_IP_RATE_LIMIT }),
    rateLimit({ name: 'verification-email-address', ...VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT, key: emailTried, keyOnly: true }),
    async (ctx, { body: { email } }) => {
      await queue.send(sendSignInLinksJob, { email, requesterHash: hashOf(browserKeyOf(ctx)) });
      ctx.status = 202;
      ctx.body = { message: SIGN_IN_LINK_SENT_MESSAGE };
    },
  );

  route(
    router,
    authRoutes.forgotPassword,
    rateLimit({ name: 'verification-email-ip', ...VERIFICATION_EMAIL_IP_RATE_LIMIT }),
    rateLimit({ name: 'verification-email-address', ...VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT, key: emailTried, keyOnly: true }),
    async (ctx, { body }) => {
      await requestPasswordReset({ db, queue }, body.email);
      // The same answer whether or not the address has an account.
      ctx.status = 202;
      ctx.body = { message: FORGOT_PASSWORD_SENT_MESSAGE };
    },
  );

  route(router, authRoutes.resetPassword, rateLimit({ name: 'link-use', ...LINK_USE_RATE_LIMIT }), async (ctx, { body: { token, password } }) => {
    const agent = await resetPassword({ db }, token, password);
    await logIn(ctx, agent);
    await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.password_reset', targetType: 'agent', targetId: agent.id }, ctx);
    ctx.body = { id: agent.id, name: agent.name, purpose: 'password_reset', loggedIn: true };
  });

  route(
    router,
    authRoutes.changePassword,
    rateLimit({ name: 'change-password', ...CHANGE_PASSWORD_RATE_LIMIT, key: (ctx) => String(actorOf(ctx).loggedInAgentId ?? '') }),
    async (ctx, { body }) => {
      const { loggedInAgentId } = actorOf(ctx);
      if (!loggedInAgentId) throw unauthorized();
      if (isImpersonating(ctx)) throw impersonationRefused();
      const { currentPassword, newPassword } = body;
      // An emailed link signed this browser in: a first password needs no current one (account.service).
      const agent = await changePassword({ db }, loggedInAgentId, currentPassword, newPassword);
      // Every other session ended; this one goes on under a new id.
      await logIn(ctx, agent);
      await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.password_changed', targetType: 'agent', targetId: agent.id }, ctx);
      ctx.body = { ok: true };
    },
  );

  route(router, authRoutes.logout, async (ctx) => {
    const { loggedInAgentId } = actorOf(ctx);
    if (loggedInAgentId) {
      await audit(db, { actorType: 'agent', actorId: loggedInAgentId, action: 'agent.logout', targetType: 'agent', targetId: loggedInAgentId }, ctx);
    }
    // Removes the stored session and clears the cookie.
    ctx.session = null;
    ctx.body = { ok: true };
  });

  route(router, authRoutes.me, async (ctx) => {
    const { loggedInAgentId, impersonating } = actorOf(ctx);
    const agent = loggedInAgentId ? await findAgent(loggedInAgentId) : undefined;
    if (!agent) throw unauthorized();
    // `impersonatedBy` only on an admin's Login As: the dashboard shows "Viewing as {name} (admin)".
    ctx.body = impersonating ? { id: agent.id, name: agent.name, impersonatedBy: 'admin' } : { id: agent.id, name: agent.name };
  });
}

import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  FORGOT_PASSWORD_SENT_MESSAGE,
  SIGN_IN_LINK_SENT_MESSAGE,
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  signInLinkSchema,
  verifyEmailSchema,
} from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { consumeRateLimit, rateLimit } from '../../platform/http/rate-limit';
import { actorOf, browserKeyOf, hashOf, isImpersonating, type SessionData } from '../../platform/auth/actor';
import { unauthorized } from '../../platform/errors';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { findAgent } from './agents.service';
import { changePassword, requestPasswordReset, resetPassword, verifyEmail, verifyLogin } from './account.service';
import { impersonationRefused, invalidCredentials } from './agents.errors';
import type { Agent } from './agent.model';
import { dummyPasswordHash } from './passwords';
import type { IdentityHooks } from './identity-hooks';
import { sendSignInLinksJob } from './jobs/send-sign-in-links.job';

const Login = { body: loginSchema };
const VerifyEmail = { body: verifyEmailSchema };
const ForgotPassword = { body: forgotPasswordSchema };
const ResetPassword = { body: resetPasswordSchema };
const ChangePassword = { body: changePasswordSchema };
const SignInLink = { body: signInLinkSchema };

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
 * POST /api/auth/login, /logout, GET /api/auth/me, and the account's email links: POST /api/auth/verify-email,
 * /forgot-password, /reset-password, and POST /api/auth/change-password.
 */
export function addAuthRoutes(router: Router, { db, queue }: AppDeps, hooks: IdentityHooks): void {
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
      await logIn(ctx, agent);
      await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.login', targetType: 'agent', targetId: agent.id }, ctx);
      ctx.body = { id: agent.id, name: agent.name };
    },
  );

  // An emailed link (account setup, sign-in, email change): verifies the address and signs this browser in.
  router.post('/api/auth/verify-email', rateLimit({ name: 'link-use', ...LINK_USE_RATE_LIMIT }), validate(VerifyEmail), async (ctx) => {
    const { token, password } = inputOf(ctx, VerifyEmail).body;
    const { agent, purpose, logIn: loggedIn } = await verifyEmail({ db, queue, hooks }, { token, password, browserHash: actorOf(ctx).browserHash });
    if (loggedIn) await logIn(ctx, agent);
    const action = purpose === 'account_setup' ? 'agent.account_setup' : purpose === 'sign_in' ? 'agent.login' : 'agent.email_changed';
    await audit(db, { actorType: 'agent', actorId: agent.id, action, targetType: 'agent', targetId: agent.id, details: { method: 'email_link' } }, ctx);
    ctx.body = { id: agent.id, name: agent.name, purpose, loggedIn };
  });

  // The login page's "Email me a sign-in link": the same answer, in the same time, whatever the address.
  router.post(
    '/api/auth/sign-in-link',
    rateLimit({ name: 'verification-email-ip', ...VERIFICATION_EMAIL_IP_RATE_LIMIT }),
    rateLimit({ name: 'verification-email-address', ...VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT, key: emailTried, keyOnly: true }),
    validate(SignInLink),
    async (ctx) => {
      const { email } = inputOf(ctx, SignInLink).body;
      await queue.send(sendSignInLinksJob, { email, requesterHash: hashOf(browserKeyOf(ctx)) });
      ctx.status = 202;
      ctx.body = { message: SIGN_IN_LINK_SENT_MESSAGE };
    },
  );

  router.post(
    '/api/auth/forgot-password',
    rateLimit({ name: 'verification-email-ip', ...VERIFICATION_EMAIL_IP_RATE_LIMIT }),
    rateLimit({ name: 'verification-email-address', ...VERIFICATION_EMAIL_ADDRESS_RATE_LIMIT, key: emailTried, keyOnly: true }),
    validate(ForgotPassword),
    async (ctx) => {
      await requestPasswordReset({ db, queue }, inputOf(ctx, ForgotPassword).body.email);
      // The same answer whether or not the address has an account.
      ctx.status = 202;
      ctx.body = { message: FORGOT_PASSWORD_SENT_MESSAGE };
    },
  );

  router.post('/api/auth/reset-password', rateLimit({ name: 'link-use', ...LINK_USE_RATE_LIMIT }), validate(ResetPassword), async (ctx) => {
    const { token, password } = inputOf(ctx, ResetPassword).body;
    const agent = await resetPassword({ db }, token, password);
    await logIn(ctx, agent);
    await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.password_reset', targetType: 'agent', targetId: agent.id }, ctx);
    ctx.body = { id: agent.id, name: agent.name, purpose: 'password_reset', loggedIn: true };
  });

  router.post(
    '/api/auth/change-password',
    rateLimit({ name: 'change-password', ...CHANGE_PASSWORD_RATE_LIMIT, key: (ctx) => String(actorOf(ctx).loggedInAgentId ?? '') }),
    validate(ChangePassword),
    async (ctx) => {
      const { loggedInAgentId } = actorOf(ctx);
      if (!loggedInAgentId) throw unauthorized();
      if (isImpersonating(ctx)) throw impersonationRefused();
      const { currentPassword, newPassword } = inputOf(ctx, ChangePassword).body;
      // An emailed link signed this browser in: a first password needs no current one (account.service).
      const agent = await changePassword({ db }, loggedInAgentId, currentPassword, newPassword);
      // Every other session ended; this one goes on under a new id.
      await logIn(ctx, agent);
      await audit(db, { actorType: 'agent', actorId: agent.id, action: 'agent.password_changed', targetType: 'agent', targetId: agent.id }, ctx);
      ctx.body = { ok: true };
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
    const { loggedInAgentId, impersonating } = actorOf(ctx);
    const agent = loggedInAgentId ? await findAgent(loggedInAgentId) : undefined;
    if (!agent) throw unauthorized();
    // `impersonatedBy` only on an admin's Login As: the dashboard shows "Viewing as {name} (admin)".
    ctx.body = impersonating ? { id: agent.id, name: agent.name, impersonatedBy: 'admin' } : { id: agent.id, name: agent.name };
  });
}

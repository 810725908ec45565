import type Router from '@koa/router';
import KoaPassport from 'koa-passport';
import { Strategy as GoogleStrategy, type Profile } from 'passport-google-oauth20';
import type { GoogleLoginResult } from '@app/contracts';
import { rateLimit } from '../../platform/http/rate-limit';
import { defineRoutes, route } from '../../platform/http/route';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { Agent } from './agent.model';
import { googleLoginDisabled } from './agents.errors';
import { logIn } from './auth.routes';
import { verifyByGoogle } from './account.service';
import type { IdentityHooks } from './identity-hooks';

/** Google's OAuth 2.0 endpoints (https://accounts.google.com/.well-known/openid-configuration). */
export const GOOGLE_AUTHORIZATION_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const GOOGLE_USERINFO_URL = 'https://www.googleapis.com/oauth2/v3/userinfo';
export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/** Starts and callbacks per client address: each callback costs two calls to Google. */
export const GOOGLE_LOGIN_RATE_LIMIT = { points: 30, durationSeconds: 15 * 60 } as const;

/** What Google's userinfo tells us: its stable subject id and the email, with whether Google verified it. */
interface GoogleIdentity {
  googleId: string;
  email: string | null;
  emailVerified: boolean;
}

function identityOf(profile: Profile): GoogleIdentity {
  // The OpenID userinfo (v3) body: { sub, email, email_verified, ... }.
  const json = (profile._json ?? {}) as { sub?: string; email?: string; email_verified?: boolean | string };
  return {
    googleId: String(json.sub ?? profile.id),
    email: typeof json.email === 'string' ? json.email.trim().toLowerCase() : null,
    emailVerified: json.email_verified === true || json.email_verified === 'true',
  };
}

/**
 * The agent a Google identity signs in as: the one already linked to this Google account; otherwise the verified
 * agent with Google's verified email; otherwise the MLS identity nobody verified whose MLS-published email Google
 * verified (Google's word proves the address as an opened link would: it becomes verified). A manual agent nobody
 * verified is never handed over, whatever email it was typed with.
 */
async function agentForGoogle(deps: { db: AppDeps['db']; hooks: IdentityHooks }, identity: GoogleIdentity): Promise<Agent | { refused: Exclude<GoogleLoginResult, 'failed'> }> {
  const linked = await Agent.query().findOne({ googleId: identity.googleId });
  if (linked) return linked;
  if (!identity.email || !identity.emailVerified) return { refused: 'unverified-email' };
  const agent =
    (await Agent.query().whereRaw('lower(email) = ?', [identity.email]).whereNotNull('verifiedAt').orderBy('id').first()) ??
    (await Agent.query().whereRaw('lower(mls_email) = ?', [identity.email]).whereNull('verifiedAt').where('source', 'mls').orderBy('id').first());
  if (!agent) return { refused: 'no-account' };
  return verifyByGoogle(deps, agent, identity.googleId, identity.email);
}

const loginPage = (result: GoogleLoginResult) => `/login?google=${result}`;

const redirect = (description: string) => ({ contentType: 'text/html', description });

export const googleLoginRoutes = defineRoutes({
  start: {
    method: 'get', path: '/api/auth/google', auth: 'public', tag: 'agents', summary: 'Continue with Google: to Google\'s consent screen (browser navigation)',
    description: 'A random `state` is kept in this session and checked by the callback. Without GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET: 503 `agents.google_login_disabled`.',
    ok: { 302: redirect("To Google's consent screen") }, errors: [429, 503],
  },
  callback: {
    method: 'get', path: GOOGLE_CALLBACK_PATH, auth: 'agent-optional', tag: 'agents', summary: 'Back from Google: logs in the agent linked to this Google account, or the account with its verified email',
    description: 'To /dashboard when logged in (new session id, googleId linked); otherwise to /login?google=no-account | unverified-email | failed (a wrong or missing `state` is `failed`).',
    ok: { 302: redirect('To /dashboard, or back to /login?google=…') }, errors: [429, 503],
  },
});

/**
 * GET /api/auth/google (to Google's consent screen) and GET /api/auth/google/callback (back from it),
 * through koa-passport and passport-google-oauth20. `state` is passport's own: a random value kept in
 * this browser's session and checked on the way back. Without GOOGLE_CLIENT_ID/SECRET both answer 503.
 */
export function addGoogleLoginRoutes(router: Router, { config, db, logger }: AppDeps, hooks: IdentityHooks): void {
  const limit = rateLimit({ name: 'google-login', ...GOOGLE_LOGIN_RATE_LIMIT });
  if (config.providers.googleLogin !== 'google' || !config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) {
    const disabled = async () => {
      throw googleLoginDisabled();
    };
    route(router, googleLoginRoutes.start, disabled);
    route(router, googleLoginRoutes.callback, disabled);
    return;
  }

  // One passport per app (not the module-wide singleton), so two apps in one process never share strategies.
  const passport = new KoaPassport.KoaPassport();
  const strategy = new GoogleStrategy(
      {
        clientID: config.GOOGLE_CLIENT_ID,
        clientSecret: config.GOOGLE_CLIENT_SECRET,
        // Google only redirects to a registered URI: the public origin, never the request's Host header.
        callbackURL: new URL(GOOGLE_CALLBACK_PATH, config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).toString(),
        authorizationURL: GOOGLE_AUTHORIZATION_URL,
        tokenURL: GOOGLE_TOKEN_URL,
        userProfileURL: GOOGLE_USERINFO_URL,
        state: true,
      },
      (_accessToken: string, _refreshToken: string, profile: Profile, done: (err: unknown, user?: GoogleIdentity) => void) => done(null, identityOf(profile)),
  );
  // The access token goes to userinfo in the Authorization header, not in the URL (where proxies log it).
  (strategy as unknown as { _oauth2: { useAuthorizationHeaderforGET(use: boolean): void } })._oauth2.useAuthorizationHeaderforGET(true);
  passport.use('google', strategy);
  const initialize = passport.initialize();

  const toGoogle = passport.authenticate('google', { scope: ['openid', 'email', 'profile'], session: false });
  route(router, googleLoginRoutes.start, limit, initialize, (ctx, _input, next) => toGoogle(ctx, next));

  route(router, googleLoginRoutes.callback, limit, initialize, async (ctx, _input, next) => {
    let outcome: { identity?: GoogleIdentity; reason?: string } = {};
    await passport.authenticate('google', { session: false }, (err: unknown, identity: GoogleIdentity | false, info?: { message?: string }) => {
      if (err) {
        // Google's token or userinfo call failed: logged without the code, token or any body.
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'google login: exchange with Google failed');
        outcome = { reason: 'google_error' };
      } else if (!identity) {
        // A missing or wrong `state`, or the user said no on Google's screen.
        outcome = { reason: info?.message ?? 'refused' };
      } else {
        outcome = { identity };
      }
    })(ctx, next);

    if (!outcome.identity) {
      await audit(db, { actorType: 'visitor', action: 'agent.google_login_failed', details: { reason: outcome.reason } }, ctx);
      ctx.redirect(loginPage('failed'));
      return;
    }
    const found = await agentForGoogle({ db, hooks }, outcome.identity);
    if ('refused' in found) {
      await audit(db, { actorType: 'visitor', action: 'agent.google_login_failed', details: { reason: found.refused } }, ctx);
      ctx.redirect(loginPage(found.refused));
      return;
    }
    // DESIGN §3: a new session id on every login.
    await logIn(ctx, found);
    await audit(db, { actorType: 'agent', actorId: found.id, action: 'agent.login', targetType: 'agent', targetId: found.id, details: { method: 'google' } }, ctx);
    ctx.redirect('/dashboard');
  });
}

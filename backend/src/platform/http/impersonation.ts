import type { Context, Next } from 'koa';
import type { Db } from '../db/knex';
import { audit } from '../audit';
import { hashOf, sessionOf, type SessionData } from '../auth/actor';

/**
 * An admin's Login As (DESIGN §6, "Sessions and roles"): the impersonation session lives only as long as the
 * admin session it came from (30 minutes at most; admin logout deletes both), and every request made under it
 * is written to audit_log with the admin. Mounted right after the session layer, so nothing runs as the agent
 * before this has checked.
 *
 * One read per impersonated request (the admin session row); other requests pay nothing.
 */
export function impersonationGuard(db: Db) {
  return async function impersonation(ctx: Context, next: Next) {
    const s = sessionOf(ctx);
    if (s.impersonatedBy !== 'admin') return next();
    const adminSid = s.impersonationAdminSid;
    const alive = adminSid ? await db('sessions').where({ sid: adminSid }).andWhere('expiresAt', '>', db.fn.now()).first('sid') : undefined;
    // The audit names the admin session by a hash: the id itself opens the admin dashboard.
    const admin = adminSid ? hashOf(adminSid).slice(0, 16) : null;
    if (!alive) {
      // The admin session ended (expired, or logged out in another process): so did the Login As.
      await audit(db, { actorType: 'admin', action: 'admin.login_as_expired', targetType: 'agent', targetId: s.agentId ?? null, details: { adminSession: admin } }, ctx);
      endImpersonation(ctx);
      return next();
    }
    // The status as sent: a refusal is thrown to the error layer, outside this one.
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (err) {
      const code = (err as { status?: unknown }).status;
      status = typeof code === 'number' ? code : 500;
      throw err;
    } finally {
      await audit(
        db,
        {
          actorType: 'admin',
          action: 'admin.impersonated_request',
          targetType: 'agent',
          targetId: s.agentId ?? null,
          details: { adminSession: admin, method: ctx.method, path: String(ctx._matchedRoute ?? ctx.path), status },
        },
        ctx,
      );
    }
  };
}

/** This browser is no longer signed in as the agent (its wizard list and key stay: they were the browser's own). */
export function endImpersonation(ctx: Context): void {
  const s = ctx.session as unknown as SessionData | null;
  if (!s) return;
  delete s.agentId;
  delete s.impersonatedBy;
  delete s.impersonationStartedAt;
  delete s.impersonationAdminSid;
}

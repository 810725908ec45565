import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Db } from '../db/knex';
import { unauthorized } from '../errors';
import { endImpersonations } from './session-store';

/**
 * The admin session (DESIGN §3 "Sessions and roles"): separate from any agent session, short-lived.
 *
 * It is its own cookie (`la.admin`, signed, httpOnly, SameSite=Strict, Path=/api/admin) pointing at its
 * own row in the `sessions` table (sid `admin:<random>`, data `{kind: 'admin'}`). The agent's koa-session
 * cookie (`la.sid`) is never touched by an admin login, and an agent session never carries an admin
 * flag, so: a logged-in agent gains nothing by logging in as admin in the same browser, Login As can put
 * the agent's (impersonation) session in `la.sid` while the admin tab keeps working, and the admin
 * session ends after ADMIN_SESSION_MINUTES whatever the agent session does. The purge-sessions job
 * deletes expired rows of both kinds.
 */
export const ADMIN_COOKIE = 'la.admin';
export const ADMIN_SESSION_MINUTES = 30;
const ADMIN_PATH = '/api/admin';

function cookieOptions(ctx: Context, maxAge: number) {
  return { httpOnly: true, signed: true, sameSite: 'strict' as const, path: ADMIN_PATH, maxAge, secure: ctx.secure, overwrite: true };
}

/** Start a new admin session under a new id (any previous one of this browser is ended). */
export async function startAdminSession(ctx: Context, db: Db): Promise<void> {
  await endAdminSession(ctx, db);
  const sid = `admin:${crypto.randomBytes(24).toString('base64url')}`;
  const ms = ADMIN_SESSION_MINUTES * 60 * 1000;
  await db('sessions').insert({ sid, data: JSON.stringify({ kind: 'admin', startedAt: new Date().toISOString() }), expiresAt: new Date(Date.now() + ms), updatedAt: db.fn.now() });
  ctx.cookies.set(ADMIN_COOKIE, sid, cookieOptions(ctx, ms));
}

/** End this browser's admin session, and the Login As sessions it started (wherever they are open). */
export async function endAdminSession(ctx: Context, db: Db): Promise<void> {
  const sid = ctx.cookies.get(ADMIN_COOKIE, { signed: true });
  if (sid?.startsWith('admin:')) {
    await endImpersonations(db, sid);
    await db('sessions').where({ sid }).delete();
  }
  ctx.cookies.set(ADMIN_COOKIE, null, cookieOptions(ctx, 0));
}

/** How long the admin session `sid` has left, in ms (0 when it is over). */
export async function adminSessionRemainingMs(db: Db, sid: string): Promise<number> {
  const row = await db('sessions').where({ sid }).first<{ expiresAt: Date } | undefined>('expiresAt');
  return row ? Math.max(0, new Date(row.expiresAt).getTime() - Date.now()) : 0;
}

/** The live admin session's id, or null (no cookie, bad signature, expired, or not an admin row). */
export async function adminSessionId(ctx: Context, db: Db): Promise<string | null> {
  const sid = ctx.cookies.get(ADMIN_COOKIE, { signed: true });
  if (!sid || !sid.startsWith('admin:')) return null;
  const row = await db('sessions').where({ sid }).andWhere('expiresAt', '>', db.fn.now()).whereRaw(`data->>'kind' = 'admin'`).first('sid');
  return row ? sid : null;
}

/** Every /api/admin/* route but the login: 401 without a live admin session. */
export function requireAdmin(db: Db) {
  return async function requireAdminSession(ctx: Context, next: Next) {
    const sid = await adminSessionId(ctx, db);
    if (!sid) throw unauthorized('admin.required', 'Admin login required');
    ctx.state.adminSessionId = sid;
    await next();
  };
}

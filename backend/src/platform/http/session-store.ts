import { LRUCache } from 'lru-cache';
import type { Context } from 'koa';
import type { Db } from '../db/knex';
import type { Config } from '../config';

/** The browser session's cookie (koa-session's key): the agent session of the OpenAPI document's security schemes. */
export const SESSION_COOKIE = 'la.sid';

/**
 * The browser session's cookie as koa-session takes it (the store comes beside it): the app's, and anything
 * that must behave as the app does (bench:floor's stack floor). Secure when the public address is https.
 */
export function sessionCookieOptions(config: Pick<Config, 'NODE_ENV' | 'PUBLIC_URL'>) {
  return {
    key: SESSION_COOKIE,
    maxAge: 30 * 24 * 60 * 60 * 1000,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.NODE_ENV === 'production' && !!config.PUBLIC_URL?.startsWith('https:'),
    signed: true,
    rolling: false,
    renew: true,
  };
}

/**
 * How long one process may answer a session read from memory. Logout and session writes in this
 * process evict at once; another process (or a revocation that deletes rows) is seen within this
 * time, so it must stay a few seconds at most.
 */
export const SESSION_CACHE_TTL_MS = 5_000;
const SESSION_CACHE_MAX = 10_000;

/**
 * The version of its session a browser last saw, in a cookie beside the session's: the row's `updated_at` (µs).
 * Every session write sets it; a process answers a session from memory only while the browser presents the
 * version it holds. Behind a load balancer that spreads one browser's requests over several processes, a session
 * written by one process (the wizard's new agent, a login) is then read afresh by the next process at once, not
 * after its cached copy's 5 s. It is a cache key and nothing more: a wrong value only costs a database read.
 */
export const SESSION_VERSION_COOKIE = 'la.sv';
const VERSION_OF = `(extract(epoch from updated_at) * 1000000)::bigint::text`;

/** A write to the sessions table by any code in this process (logout, revocation, purge). */
const SESSIONS_WRITE = /^\s*(delete\s+from|update|truncate)\s+"?sessions"?\b/i;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A copy of a JSON value (a session's data), each object and array new: what JSON.parse of its text gives, at a
 * fifth of the cost (parsing the cached text was the largest part of a cached read's session layer). Keys are
 * defined, never assigned, so a key named `__proto__` stays a plain key, as JSON.parse keeps it.
 */
function copyJson(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: { [key: string]: Json } = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') Object.defineProperty(copy, key, { value: copyJson(value[key]), enumerable: true, writable: true, configurable: true });
    else copy[key] = copyJson(value[key]);
  }
  return copy;
}

/**
 * koa-session external store in the `sessions` table (server-side sessions; the cookie holds only the id),
 * with a short in-process read cache: a request with a cookie would otherwise read its session row first.
 * The cache keeps its own copy of the data, never handed out: each request gets a fresh copy to change.
 */
export function postgresSessionStore(
  db: Db,
  {
    ttlMs = SESSION_CACHE_TTL_MS,
    clock = performance,
    cookie = { maxAge: 30 * 24 * 60 * 60 * 1000, secure: false },
  }: { ttlMs?: number; clock?: { now(): number }; cookie?: { maxAge: number; secure: boolean } } = {},
) {
  const cache =
    ttlMs > 0
      ? new LRUCache<string, { data: Json | null; expiresAt: number; version: string | null }>({ max: SESSION_CACHE_MAX, ttl: Math.min(ttlMs, SESSION_CACHE_TTL_MS), perf: clock, ttlResolution: 0 })
      : null;
  const tellVersion = (ctx: Context | undefined, version: string) => {
    try {
      ctx?.cookies.set(SESSION_VERSION_COOKIE, version, { httpOnly: true, sameSite: 'lax', secure: cookie.secure, maxAge: cookie.maxAge, signed: false, overwrite: true });
    } catch {
      // The answer has started (a session first read late): the next write tells it.
    }
  };
  if (cache) {
    // Code that deletes or updates session rows directly (revoking an agent's sessions, the purge job) goes
    // through this pool: forget everything, so this process sees the change at once. Both before and
    // after the statement, so a read racing the statement cannot put the old row back.
    const onQuery = (q: { sql?: string }) => {
      if (q.sql && SESSIONS_WRITE.test(q.sql)) cache.clear();
    };
    db.on('query', onQuery);
    db.on('query-response', (_res: unknown, q: { sql?: string }) => onQuery(q));
  }
  return {
    cache,
    async get(sid: string, _maxAge?: unknown, opts?: { ctx?: Context }) {
      // Without a request (a direct call) there is no browser's version to go by: any copy in memory will do.
      const seen = opts?.ctx ? (opts.ctx.cookies.get(SESSION_VERSION_COOKIE) ?? null) : undefined;
      const hit = cache?.get(sid);
      // The copy in memory only while it is the version this browser was last given (or the session is gone).
      if (hit && hit.expiresAt > Date.now() && (seen === undefined || hit.version === null || hit.version === seen)) {
        // koa-session takes the data as JSON.parse gave it before: any.
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return hit.data === null ? null : (copyJson(hit.data) as any);
      }
      const row = (await db('sessions')
        .where({ sid })
        .andWhere('expiresAt', '>', db.fn.now())
        .first('data', 'expiresAt', db.raw(`${VERSION_OF} as version`))) as { data: Record<string, unknown>; expiresAt: Date; version: string } | undefined;
      if (cache) {
        cache.set(sid, { data: row ? copyJson(row.data as Json) : null, expiresAt: row ? new Date(row.expiresAt).getTime() : Infinity, version: row?.version ?? null });
      }
      // Changed by other code (a revocation) since this browser's last write: from now on it presents this version.
      if (row && row.version !== seen) tellVersion(opts?.ctx, row.version);
      return row?.data ?? null;
    },
    async set(sid: string, data: Record<string, unknown>, maxAge: number | 'session' | undefined, opts?: { ctx?: Context }) {
      const ms = typeof maxAge === 'number' ? maxAge : 24 * 60 * 60 * 1000;
      const expiresAt = new Date(Date.now() + ms);
      cache?.delete(sid);
      const [row] = (await db('sessions')
        .insert({ sid, data: JSON.stringify(data), expiresAt, updatedAt: db.fn.now() })
        .onConflict('sid')
        .merge(['data', 'expiresAt', 'updatedAt'])
        .returning(db.raw(`${VERSION_OF} as version`) as unknown as string)) as unknown as { version: string }[];
      cache?.set(sid, { data: JSON.parse(JSON.stringify(data)) as Json, expiresAt: expiresAt.getTime(), version: row.version });
      tellVersion(opts?.ctx, row.version);
    },
    async destroy(sid: string) {
      cache?.delete(sid);
      await db('sessions').where({ sid }).delete();
      cache?.delete(sid);
    },
  };
}

/**
 * End every stored session's access to an agent (DESIGN §6: verifying an email, resetting or changing a
 * password, a merge): sessions signed in as it are deleted, and it leaves the wizard list of every other
 * session. Works on the stored rows, so every process sees it (a read cache holds a row for a few seconds at
 * most). The calling request's own session is written afresh when it commits.
 */
export async function revokeAgentSessions(db: Db, agentId: number): Promise<{ deleted: number; disowned: number }> {
  const deleted = await db('sessions').whereRaw(`data->>'agentId' = ?`, [String(agentId)]).delete();
  const result = await db.raw(
    `update sessions
        set data = jsonb_set(data, '{wizardAgentIds}',
              coalesce((select jsonb_agg(e) from jsonb_array_elements(data->'wizardAgentIds') e where e <> to_jsonb(?::int)), '[]'::jsonb)),
            updated_at = now()
      where jsonb_typeof(data->'wizardAgentIds') = 'array' and data->'wizardAgentIds' @> jsonb_build_array(?::int)`,
    [agentId, agentId],
  );
  return { deleted, disowned: (result as { rowCount: number }).rowCount };
}

/** End the Login As sessions an admin session started (the admin logged out, or its session ended). */
export async function endImpersonations(db: Db, adminSid: string): Promise<number> {
  return db('sessions').whereRaw(`data->>'impersonationAdminSid' = ?`, [adminSid]).delete();
}

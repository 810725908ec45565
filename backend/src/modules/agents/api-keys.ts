import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import { API_KEY_PREFIX, API_KEYS_PER_AGENT, type ApiKeyCreated, type ApiKeyCreatePayload, type ApiKeyScope, type ApiKeyView } from '@app/contracts';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import { consumeRateLimit } from '../../platform/http/rate-limit';
import { apiKeyInvalid, apiKeyNotFound, apiKeyRequired, apiKeyScopeMissing, tooManyApiKeys } from './agents.errors';

/**
 * API keys of the public API (/api/v1). A key is `la_` + 32 random bytes (base64url); only its SHA-256 is
 * stored, so a database dump yields no usable key. The key is shown once, in the answer that creates it.
 * Every request with a key reads the key's row (no cache): revoking takes effect on the next request.
 */

/** Requests per key and minute, counted in PostgreSQL (every process shares one budget). */
export const API_KEY_RATE_LIMIT = { name: 'api-key', points: 120, durationSeconds: 60 } as const;
/** Refused keys per client address and minute: a wrong key costs a lookup, and guessing is pointless anyway. */
export const API_KEY_INVALID_RATE_LIMIT = { name: 'api-key-invalid', points: 30, durationSeconds: 60 } as const;

interface ApiKeyRow {
  id: string | number;
  agentId: number;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What a request authenticated with a key knows about it (ctx.state.apiKey). */
export interface ApiKeyPrincipal {
  id: number;
  agentId: number;
  name: string;
  scopes: ApiKeyScope[];
}

export const hashApiKey = (key: string) => crypto.createHash('sha256').update(key, 'utf8').digest('hex');

function presentApiKey(r: ApiKeyRow): ApiKeyView {
  return {
    id: Number(r.id),
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    createdAt: new Date(r.createdAt).toISOString(),
    lastUsedAt: r.lastUsedAt ? new Date(r.lastUsedAt).toISOString() : null,
  };
}

/** The agent's keys that are not revoked, newest first (never the keys themselves). */
export async function listApiKeys(db: Db, agentId: number): Promise<ApiKeyView[]> {
  const rows = (await db('agentApiKeys').where({ agentId }).whereNull('revokedAt').orderBy('id', 'desc')) as ApiKeyRow[];
  return rows.map(presentApiKey);
}

/** A new key for the agent: returned whole this once. At most API_KEYS_PER_AGENT live keys (checked under a lock on the agent). */
export async function createApiKey(db: Db, agentId: number, input: ApiKeyCreatePayload): Promise<ApiKeyCreated> {
  const key = `${API_KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  return db.transaction(async (trx) => {
    await trx('agents').where({ id: agentId }).forUpdate().first('id');
    const [{ count }] = await trx('agentApiKeys').where({ agentId }).whereNull('revokedAt').count({ count: '*' });
    if (Number(count) >= API_KEYS_PER_AGENT) throw tooManyApiKeys();
    const [row] = (await trx('agentApiKeys')
      .insert({ agentId, name: input.name, prefix: key.slice(0, API_KEY_PREFIX.length + 4), keyHash: hashApiKey(key), scopes: input.scopes })
      .returning('*')) as ApiKeyRow[];
    return { ...presentApiKey(row), key };
  });
}

/** Revoke one of the agent's keys: the next request with it is refused. Another agent's key is a 404. */
export async function revokeApiKey(db: Db, agentId: number, keyId: number): Promise<ApiKeyView> {
  const [row] = (await db('agentApiKeys').where({ id: keyId, agentId }).whereNull('revokedAt').update({ revokedAt: db.fn.now() }).returning('*')) as ApiKeyRow[];
  if (!row) throw apiKeyNotFound();
  return presentApiKey(row);
}

/**
 * The ids of the keys that are live (not revoked), as a subquery another module puts in its own query: a
 * REST hook's delivery reads its hook and whether its key is live in one statement, and stops once it is revoked.
 */
export function liveApiKeyIds(db: Db) {
  return db('agentApiKeys').select('id').whereNull('revokedAt');
}

/** The key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function apiKeyOf(ctx: Context): string | null {
  const auth = ctx.get('authorization');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (bearer) return bearer[1];
  const header = ctx.get('x-api-key').trim();
  return header || null;
}

/** The key of a request that `requireApiKey` let through. */
export function apiKeyPrincipal(ctx: Context): ApiKeyPrincipal {
  const principal = ctx.state.apiKey as ApiKeyPrincipal | undefined;
  if (!principal) throw new Error('apiKeyPrincipal: the route has no requireApiKey()');
  return principal;
}

const RECORD_USE = `
  with usage as (
    insert into agent_api_key_usage (api_key_id, minute, route, status, count, last_ip, last_at)
    values (?, date_trunc('minute', now()), ?, ?, 1, ?::inet, now())
    on conflict (api_key_id, minute, route, status)
    do update set count = agent_api_key_usage.count + 1, last_ip = excluded.last_ip, last_at = excluded.last_at
  )
  update agent_api_keys set last_used_at = now()
   where id = ? and (last_used_at is null or last_used_at < now() - interval '1 minute')`;

/**
 * The audit of a key's use, aggregated (migration 20261127070000): the (key, minute, route, status) row's
 * count goes up by one, and the key's last-used time moves when it is over a minute old. One statement
 * per request; a busy key rewrites one small row instead of adding one per call.
 */
async function recordUse(db: Db, keyId: number, route: string, status: number, ip: string): Promise<void> {
  await db.raw(RECORD_USE, [keyId, route.slice(0, 100), status, ip || null, keyId]);
}

/**
 * Route middleware of the public API: the request must carry a live key (401 otherwise) with `scope`
 * when one is named (403), within the key's rate limit (429). The key's agent is the only agent the
 * request can read or change. Every use, refused or not once the key is known, is recorded.
 */
export function requireApiKey(deps: { db: Db; logger: Logger }, scope?: ApiKeyScope) {
  return async function authenticateApiKey(ctx: Context, next: Next) {
    // Answers to API clients are never cached by anything in between.
    ctx.set('Cache-Control', 'no-store');
    const key = apiKeyOf(ctx);
    if (!key) {
      ctx.set('WWW-Authenticate', 'Bearer realm="Listing Ads API"');
      throw apiKeyRequired();
    }
    const row = (await deps.db('agentApiKeys').where({ keyHash: hashApiKey(key) }).whereNull('revokedAt').first('id', 'agentId', 'name', 'scopes')) as
      | Pick<ApiKeyRow, 'id' | 'agentId' | 'name' | 'scopes'>
      | undefined;
    if (!row) {
      await consumeRateLimit(deps.db, API_KEY_INVALID_RATE_LIMIT, ctx.ip);
      ctx.set('WWW-Authenticate', 'Bearer realm="Listing Ads API", error="invalid_token"');
      throw apiKeyInvalid();
    }
    const principal: ApiKeyPrincipal = { id: Number(row.id), agentId: row.agentId, name: row.name, scopes: row.scopes };
    const route = `${ctx.method} ${(ctx as Context & { _matchedRoute?: string })._matchedRoute ?? ctx.path}`;
    let status = 500;
    try {
      if (scope && !principal.scopes.includes(scope)) throw apiKeyScopeMissing(scope);
      await consumeRateLimit(deps.db, API_KEY_RATE_LIMIT, String(principal.id));
      ctx.state.apiKey = principal;
      await next();
      status = ctx.status;
    } catch (err) {
      status = (err as { status?: number }).status ?? 500;
      throw err;
    } finally {
      await recordUse(deps.db, principal.id, route, status, ctx.ip).catch((err) => deps.logger.warn({ err, keyId: principal.id }, 'api key use not recorded'));
    }
  };
}

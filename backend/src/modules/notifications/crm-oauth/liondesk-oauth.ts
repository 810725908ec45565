import type { Knex } from 'knex';
import type { LionDeskConnectionView } from '@app/contracts';
import { publicOrigin, type Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { SecretBox } from '../../../platform/crypto/secret-box';
import { OutboundError, outboundFetch } from '../../../platform/outbound/http';

/**
 * LionDesk's v2 API and its OAuth 2.0 authorization-code grant, as developers.liondesk.com documents them:
 *  - docs/authentication/authorization-grant: the agent is sent to `https://api-v2.liondesk.com/oauth2/authorize`
 *    with response_type=code, client_id, redirect_uri and scope ("write"); LionDesk sends them back to the redirect
 *    URI with `?code=…`; the code is exchanged by a server-to-server `POST https://api-v2.liondesk.com/oauth2/token`
 *    with a JSON body (Content-Type: application/json) carrying the code and the application's details;
 *  - docs/authentication/access-tokens: the answer is {access_token, refresh_token, expires (ISO 8601), expires_in
 *    (seconds), scope, token_type: "Bearer"}; the refresh token "can be used to generate a new access token" (the
 *    same token endpoint, grant_type refresh_token); API calls carry `Authorization: Bearer <access token>`.
 * The documentation prints every URL with a doubled slash (`https://api-v2.liondesk.com//contacts`): its base URL
 * `https://api-v2.liondesk.com/` joined to the path `/contacts`. We send the normalized single-slash path (the same
 * resource; HTTP clients and test interceptors alike read `//contacts` as a host). Tests intercept this origin.
 */
export const LIONDESK_API = 'https://api-v2.liondesk.com';
export const LIONDESK_AUTHORIZE_URL = `${LIONDESK_API}/oauth2/authorize`;
export const LIONDESK_TOKEN_URL = `${LIONDESK_API}/oauth2/token`;
/** Where LionDesk sends the agent back (registered as the app's Redirect URI): on the public origin, never the Host header. */
export const LIONDESK_CALLBACK_PATH = '/api/crm/liondesk/callback';
/** Creating contacts needs the write scope (the documented example scope). */
export const LIONDESK_SCOPE = 'write';
/** An access token this close to its expiry is renewed before use, so it cannot lapse in flight. */
const EXPIRY_MARGIN_MS = 60_000;

type LionDeskConfig = Pick<Config, 'LIONDESK_CLIENT_ID' | 'LIONDESK_CLIENT_SECRET' | 'PUBLIC_URL' | 'PORT'>;

export const liondeskConfigured = (config: Pick<Config, 'LIONDESK_CLIENT_ID' | 'LIONDESK_CLIENT_SECRET'>) => !!config.LIONDESK_CLIENT_ID && !!config.LIONDESK_CLIENT_SECRET;

export function liondeskRedirectUri(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return new URL(LIONDESK_CALLBACK_PATH, publicOrigin(config)).toString();
}

/** The documented authorization link, with our signed `state` (RFC 6749 §4.1.1: LionDesk hands it back unchanged). */
export function liondeskAuthorizeUrl(config: LionDeskConfig, state: string): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: config.LIONDESK_CLIENT_ID!,
    redirect_uri: liondeskRedirectUri(config),
    scope: LIONDESK_SCOPE,
    state,
  });
  return `${LIONDESK_AUTHORIZE_URL}?${query}`;
}

export interface LionDeskTokens {
  accessToken: string;
  /** Absent when LionDesk's answer has none (a refresh may keep the one we have). */
  refreshToken: string | null;
  expiresAt: Date | null;
}

/**
 * A token endpoint answer. `refused`: LionDesk said no (a 4xx: the code or refresh token is spent, revoked or
 * wrong, or the app's credentials are): trying again cannot help. Otherwise (5xx, network, a timeout) it may.
 * `detail` never carries a token: only the status and LionDesk's error words.
 */
export type TokenAnswer = { ok: true; tokens: LionDeskTokens } | { ok: false; refused: boolean; status: number | null; detail: string };

/** LionDesk's error words from a token answer (RFC 6749 §5.2 `error` / `error_description`, or a `message`), never a token. */
function errorWords(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown; message?: unknown };
    const words = [body.error, body.error_description, body.message].filter((w): w is string => typeof w === 'string' && w.length > 0 && w.length < 300);
    return words.length ? words.join(': ') : null;
  } catch {
    return null;
  }
}

/** POST to the token endpoint (JSON, as documented) with the grant's fields and the application's credentials. */
export async function requestTokens(config: LionDeskConfig, grant: { grant_type: 'authorization_code'; code: string } | { grant_type: 'refresh_token'; refresh_token: string }, now: Date): Promise<TokenAnswer> {
  const body = JSON.stringify({ ...grant, client_id: config.LIONDESK_CLIENT_ID, client_secret: config.LIONDESK_CLIENT_SECRET, redirect_uri: liondeskRedirectUri(config) });
  let status: number;
  let text: string;
  try {
    const res = await outboundFetch(LIONDESK_TOKEN_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
    status = res.status;
    text = await res.text();
  } catch (err) {
    return { ok: false, refused: false, status: null, detail: err instanceof OutboundError ? err.message : `network: ${(err as Error).message}` };
  }
  if (status < 200 || status >= 300) {
    const words = errorWords(text);
    return { ok: false, refused: status >= 400 && status < 500 && status !== 408 && status !== 429, status, detail: `LionDesk answered ${status}${words ? ` (${words})` : ''}` };
  }
  let answer: { access_token?: unknown; refresh_token?: unknown; expires?: unknown; expires_in?: unknown };
  try {
    answer = JSON.parse(text);
  } catch {
    return { ok: false, refused: false, status, detail: 'LionDesk’s token answer is not JSON' };
  }
  if (typeof answer.access_token !== 'string' || !answer.access_token) return { ok: false, refused: false, status, detail: 'LionDesk’s token answer has no access_token' };
  const expires = typeof answer.expires === 'string' && !Number.isNaN(Date.parse(answer.expires)) ? new Date(answer.expires) : null;
  const expiresIn = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? new Date(now.getTime() + answer.expires_in * 1000) : null;
  return {
    ok: true,
    tokens: {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === 'string' && answer.refresh_token ? answer.refresh_token : null,
      // `expires_in` is relative to this answer, so it is trusted over a clock on LionDesk's side.
      expiresAt: expiresIn ?? expires,
    },
  };
}

/** A row of crm_oauth_connections (the tokens sealed). */
interface ConnectionRow {
  agentId: number;
  provider: 'liondesk';
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  expiresAt: Date | null;
  needsReconnectAt: Date | null;
  connectedAt: Date;
}

const connections = (db: Db | Knex.Transaction) => db('crmOauthConnections');

/** Stores a fresh connection (a new consent): the tokens sealed, any "needs reconnect" cleared. */
export async function saveLionDeskConnection(db: Db | Knex.Transaction, box: SecretBox, agentId: number, tokens: LionDeskTokens): Promise<void> {
  const values = {
    accessTokenEnc: box.seal(tokens.accessToken),
    refreshTokenEnc: tokens.refreshToken ? box.seal(tokens.refreshToken) : null,
    expiresAt: tokens.expiresAt,
    needsReconnectAt: null,
    connectedAt: db.fn.now(),
    updatedAt: db.fn.now(),
  };
  await connections(db)
    .insert({ agentId, provider: 'liondesk', ...values })
    .onConflict(['agentId', 'provider'])
    .merge(values);
}

export async function deleteLionDeskConnection(db: Db | Knex.Transaction, agentId: number): Promise<boolean> {
  return (await connections(db).where({ agentId, provider: 'liondesk' }).delete()) > 0;
}

/** The connection on the wire: whether there is one, and whether it needs the agent again. No token, ever. */
export async function lionDeskConnectionView(db: Db, agentId: number): Promise<LionDeskConnectionView> {
  const row = (await connections(db).where({ agentId, provider: 'liondesk' }).first()) as ConnectionRow | undefined;
  return { connected: !!row, needsReconnect: !!row?.needsReconnectAt, connectedAt: row ? new Date(row.connectedAt).toISOString() : null };
}

/** The words a delivery fails with when only the agent can help. */
export const LIONDESK_RECONNECT = 'LionDesk no longer accepts this connection (access was revoked or expired): connect LionDesk again in Lead Notifications → CRM';
export const LIONDESK_NOT_CONNECTED = 'LionDesk is not connected: click Connect LionDesk in Lead Notifications → CRM';

export type AccessToken = { ok: true; accessToken: string } | { ok: false; permanent: boolean; error: string; statusCode: number | null };

const fresh = (row: Pick<ConnectionRow, 'expiresAt'>, now: Date) => !row.expiresAt || new Date(row.expiresAt).getTime() - EXPIRY_MARGIN_MS > now.getTime();

/**
 * The agent's LionDesk access token, renewed first when it has expired (or is about to). Multi-process safe: the
 * renewal runs under the connection row's lock (SELECT … FOR UPDATE), and whoever gets the lock second sees the
 * renewed token and uses it, so two workers never both spend a refresh token (LionDesk may issue a new one each
 * time). A renewal LionDesk refuses marks the connection as needing the agent (`needs_reconnect_at`) and fails
 * for good; a renewal that could not reach LionDesk is retried with the delivery.
 */
export async function lionDeskAccessToken(deps: { db: Db; box: SecretBox; config: LionDeskConfig; now: Date }, agentId: number): Promise<AccessToken> {
  const { db, box, config, now } = deps;
  const row = (await connections(db).where({ agentId, provider: 'liondesk' }).first()) as ConnectionRow | undefined;
  if (!row) return { ok: false, permanent: true, error: LIONDESK_NOT_CONNECTED, statusCode: null };
  if (row.needsReconnectAt) return { ok: false, permanent: true, error: LIONDESK_RECONNECT, statusCode: null };
  if (fresh(row, now)) return { ok: true, accessToken: box.open(row.accessTokenEnc) };
  if (!liondeskConfigured(config)) return { ok: false, permanent: true, error: 'LionDesk is no longer configured on this server (LIONDESK_CLIENT_ID / LIONDESK_CLIENT_SECRET)', statusCode: null };

  return db.transaction(async (trx) => {
    const locked = (await connections(trx).where({ agentId, provider: 'liondesk' }).forUpdate().first()) as ConnectionRow | undefined;
    if (!locked) return { ok: false as const, permanent: true, error: LIONDESK_NOT_CONNECTED, statusCode: null };
    if (locked.needsReconnectAt) return { ok: false as const, permanent: true, error: LIONDESK_RECONNECT, statusCode: null };
    // Another worker renewed it while this one waited for the lock.
    if (fresh(locked, now)) return { ok: true as const, accessToken: box.open(locked.accessTokenEnc) };
    const markReconnect = () => connections(trx).where({ agentId, provider: 'liondesk' }).update({ needsReconnectAt: now, updatedAt: trx.fn.now() });
    if (!locked.refreshTokenEnc) {
      await markReconnect();
      return { ok: false as const, permanent: true, error: LIONDESK_RECONNECT, statusCode: null };
    }
    const answer = await requestTokens(config, { grant_type: 'refresh_token', refresh_token: box.open(locked.refreshTokenEnc) }, now);
    if (!answer.ok) {
      if (!answer.refused) return { ok: false as const, permanent: false, error: `Renewing the LionDesk access token failed: ${answer.detail}`, statusCode: answer.status };
      await markReconnect();
      return { ok: false as const, permanent: true, error: `${LIONDESK_RECONNECT} (${answer.detail})`, statusCode: answer.status };
    }
    await connections(trx)
      .where({ agentId, provider: 'liondesk' })
      .update({
        accessTokenEnc: box.seal(answer.tokens.accessToken),
        // A renewal without a new refresh token keeps the one we have.
        ...(answer.tokens.refreshToken ? { refreshTokenEnc: box.seal(answer.tokens.refreshToken) } : {}),
        expiresAt: answer.tokens.expiresAt,
        updatedAt: trx.fn.now(),
      });
    return { ok: true as const, accessToken: answer.tokens.accessToken };
  });
}

/** LionDesk answered 401 to a call with a token we thought fresh: it is not; the next attempt renews it first. */
export async function expireLionDeskAccessToken(db: Db, agentId: number, now: Date): Promise<void> {
  await connections(db).where({ agentId, provider: 'liondesk' }).update({ expiresAt: now, updatedAt: db.fn.now() });
}

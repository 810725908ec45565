import { outboundFetch } from '../../../platform/outbound/http';
import type { Logger } from '../../../platform/logger';
import type { MlsMember } from '../../agents';
import { mapResoProperties, type MappedBatch } from '../reso-mapping';
import { memberFromReso, nameCandidates } from '../member-search';
import { MlsProviderError, readCollection, type MlsProvider } from './mls-provider';

/**
 * RESO Web API (OData 4) provider.
 * - Auth: OAuth2 client credentials (token cached, refreshed shortly before it expires and once
 *   on a 401), or a static bearer token.
 * - Member search: `Member?$filter=(tolower(MemberFirstName) eq 'sarah' and tolower(MemberLastName) eq 'johnson')
 *   and MemberStateOrProvince eq 'FL' and MemberStatus eq 'Active'`. tolower() makes the match
 *   case-insensitive whatever case the MLS stores names in; names are short, so the cost is small.
 * - Listings: `Property?$filter=ListAgentMlsId eq '…'&$expand=Media&$orderby=ListingKey&$count=true&$top=<large>`:
 *   we ask for a large page and the server sends at most its own maximum. When its @odata.nextLink pages
 *   by `$skip` and it told us the total (@odata.count), the remaining pages are fetched in parallel
 *   (a stable order makes $skip pages consistent); otherwise (`$skiptoken`, no count) the nextLinks are
 *   followed one by one. Same origin only (the bearer token goes with it), up to a page cap.
 * - 429 and 5xx are retried a few times, honouring Retry-After (seconds or an HTTP date); a
 *   Retry-After longer than we are willing to wait fails at once instead of hammering.
 */
export interface ResoProviderOptions {
  baseUrl: string;
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  bearerToken?: string;
  timeoutMs?: number;
  /** Retries after the first attempt on 429/5xx. */
  maxRetries?: number;
  /** The longest wait between retries we accept (Retry-After above it fails the call). */
  maxRetryDelayMs?: number;
  /** Pages of Property followed through @odata.nextLink at most. */
  maxPages?: number;
  /** $top asked per page: servers send at most their own maximum, so ask for a large page. */
  pageSize?: number;
  /** Pages fetched at once when the server pages by $skip. */
  parallelPages?: number;
  logger?: Logger;
  /** Seams for tests: time and waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface CachedToken {
  token: string;
  refreshAt: number;
}

const RESOURCE_OF = (url: URL) => url.pathname.split('/').filter(Boolean).pop() ?? url.pathname;

/** OData string literal: single quotes are doubled. */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function memberFilter(name: string, state: string): string | null {
  const candidates = nameCandidates(name);
  if (!candidates.length) return null;
  const names = candidates.map((c) => `(tolower(MemberFirstName) eq ${odataString(c.first)} and tolower(MemberLastName) eq ${odataString(c.last)})`);
  const byName = names.length === 1 ? names[0] : `(${names.join(' or ')})`;
  return `${byName} and MemberStateOrProvince eq ${odataString(state)} and MemberStatus eq 'Active'`;
}

/** Retry-After: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const s = header.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Read and drop a body we do not use, so the connection finishes cleanly (and can be reused). */
async function discard(res: Response): Promise<void> {
  await res.arrayBuffer().catch(() => undefined);
}

export function createResoProvider(opts: ResoProviderOptions): MlsProvider {
  const useOauth = !opts.bearerToken;
  if (useOauth && !(opts.tokenUrl && opts.clientId && opts.clientSecret)) {
    throw new Error('RESO: set RESO_BEARER_TOKEN, or RESO_TOKEN_URL with RESO_CLIENT_ID and RESO_CLIENT_SECRET');
  }
  const base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRetries = opts.maxRetries ?? 3;
  const maxRetryDelayMs = opts.maxRetryDelayMs ?? 10_000;
  const maxPages = opts.maxPages ?? 25;
  const pageSize = opts.pageSize ?? 1000;
  const parallelPages = opts.parallelPages ?? 4;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const log = opts.logger?.child({ provider: 'reso' });

  let cached: CachedToken | null = null;
  let inflight: Promise<string> | null = null;

  /** One HTTP exchange with retries on 429/5xx. Network failures and timeouts are not retried. */
  async function send(url: URL, init: RequestInit, what: string): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await outboundFetch(url, { ...init, timeoutMs });
      } catch (err) {
        throw new MlsProviderError(`${what}: ${(err as Error).message}`, { cause: err });
      }
      if ((res.status === 429 || res.status >= 500) && attempt < maxRetries) {
        const wait = retryAfterMs(res.headers.get('retry-after'), now()) ?? 250 * 2 ** attempt;
        await discard(res);
        if (wait > maxRetryDelayMs) throw new MlsProviderError(`${what}: ${res.status}, asked to retry after ${Math.round(wait / 1000)} s`);
        log?.warn({ status: res.status, attempt: attempt + 1, waitMs: wait }, 'RESO call failed; retrying');
        await sleep(wait);
        continue;
      }
      return res;
    }
  }

  async function fetchToken(): Promise<string> {
    const url = new URL(opts.tokenUrl!);
    const res = await send(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: opts.clientId!, client_secret: opts.clientSecret! }).toString(),
      },
      'token',
    );
    const body = await readJson(res, 'token');
    const token = (body as { access_token?: unknown })?.access_token;
    if (!res.ok || typeof token !== 'string' || !token) throw new MlsProviderError(`token: the token endpoint answered ${res.status} without an access_token`);
    const expiresIn = Number((body as { expires_in?: unknown }).expires_in);
    const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : 300_000;
    // Refresh a minute early (or at half-life for short-lived tokens), so a request never carries a token about to expire.
    cached = { token, refreshAt: now() + lifetimeMs - Math.min(60_000, lifetimeMs / 2) };
    return token;
  }

  async function token(forceRefresh = false): Promise<string> {
    if (!useOauth) return opts.bearerToken!;
    if (forceRefresh) cached = null;
    if (cached && now() < cached.refreshAt) return cached.token;
    // One token request at a time, however many calls need it.
    inflight ??= fetchToken().finally(() => {
      inflight = null;
    });
    return inflight;
  }

  async function readJson(res: Response, what: string): Promise<unknown> {
    const body = await res.text().catch((err: Error) => {
      throw new MlsProviderError(`${what}: could not read the answer: ${err.message}`, { cause: err });
    });
    try {
      return JSON.parse(body);
    } catch {
      throw new MlsProviderError(`${what}: the answer (${res.status}) is not JSON`);
    }
  }

  /** GET an OData resource as JSON, with a fresh token once if the server says 401. */
  async function getJson(url: URL): Promise<unknown> {
    const what = RESOURCE_OF(url);
    let refreshed = false;
    for (;;) {
      const res = await send(url, { headers: { Authorization: `Bearer ${await token()}`, Accept: 'application/json' } }, what);
      if (res.status === 401 && useOauth && !refreshed) {
        await discard(res);
        refreshed = true;
        await token(true);
        continue;
      }
      if (!res.ok) {
        await discard(res);
        throw new MlsProviderError(`${what}: the MLS answered ${res.status}`);
      }
      return readJson(res, what);
    }
  }

  function resourceUrl(resource: string, query: Record<string, string>): URL {
    const url = new URL(resource, base);
    // OData wants %20, not "+", for spaces: build the query by hand.
    url.search = Object.entries(query)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('&');
    return url;
  }

  return {
    name: 'reso',

    async searchMembers(name, state) {
      const filter = memberFilter(name, state);
      if (!filter) return [];
      const body = await getJson(resourceUrl('Member', { $filter: filter, $top: '10' }));
      const { value } = readCollection(body, 'Member');
      return value
        .map((m) => memberFromReso(m, state))
        .filter((m): m is MlsMember => m !== null)
        .sort((a, b) => a.mlsId.localeCompare(b.mlsId));
    },

    async listingsForAgent(memberMlsId) {
      const records: unknown[] = [];
      const first = resourceUrl('Property', {
        $filter: `ListAgentMlsId eq ${odataString(memberMlsId)}`,
        $expand: 'Media',
        $orderby: 'ListingKey',
        $count: 'true',
        $top: String(pageSize),
      });
      const sameOrigin = (link: string, from: URL): URL => {
        const next = new URL(link, from);
        if (next.origin !== base.origin) throw new MlsProviderError('Property: @odata.nextLink points to another host');
        return next;
      };
      const page1 = readCollection(await getJson(first), 'Property');
      records.push(...page1.value);
      const next1 = page1.nextLink ? sameOrigin(page1.nextLink, first) : null;
      const skip = Number(next1?.searchParams.get('$skip'));
      const served = page1.value.length;

      if (next1 && page1.count !== null && served > 0 && skip === served) {
        // The server pages by $skip and told us how many there are: ask for every remaining page at once.
        const offsets: number[] = [];
        for (let at = served; at < page1.count; at += served) offsets.push(at);
        if (offsets.length + 1 > maxPages) log?.warn({ memberMlsId, pages: offsets.length + 1, maxPages }, 'RESO page cap reached; loading what we have');
        const wanted = offsets.slice(0, Math.max(0, maxPages - 1));
        const pages: unknown[][] = new Array(wanted.length);
        let cursor = 0;
        const worker = async () => {
          while (cursor < wanted.length) {
            const i = cursor++;
            const url = new URL(next1);
            url.searchParams.set('$skip', String(wanted[i]));
            url.search = url.search.replace(/\+/g, '%20');
            pages[i] = readCollection(await getJson(url), 'Property').value;
          }
        };
        await Promise.all(Array.from({ length: Math.min(parallelPages, wanted.length) }, worker));
        for (const p of pages) records.push(...p);
      } else {
        let url: URL | null = next1;
        for (let page = 1; url; page++) {
          if (page >= maxPages) {
            log?.warn({ memberMlsId, pages: page, records: records.length }, 'RESO page cap reached; loading what we have');
            break;
          }
          const { value, nextLink }: { value: unknown[]; nextLink: string | null } = readCollection(await getJson(url), 'Property');
          records.push(...value);
          url = nextLink ? sameOrigin(nextLink, url) : null;
        }
      }
      const batch: MappedBatch = mapResoProperties(records);
      if (batch.skipped) log?.warn({ memberMlsId, skipped: batch.skipped, problems: batch.problems }, 'RESO records skipped');
      return batch;
    },
  };
}

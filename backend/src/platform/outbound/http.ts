import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * Outbound HTTP. Two doors:
 *  - `outboundFetch` for calls to the providers we configure (MLS, Meta, Stripe, OpenAI…): timeouts, nothing else.
 *  - `createSafeFetch` for URLs that users typed (webhooks, Zapier, CRM): every connection, including each
 *    redirect hop, is checked against the resolved address at connect time, so DNS rebinding cannot slip a
 *    private address in between the check and the connect.
 */

export class OutboundError extends Error {
  constructor(message: string, public readonly code: 'timeout' | 'blocked_address' | 'too_many_redirects' | 'network' | 'invalid_url') {
    super(message);
  }
}

export async function outboundFetch(url: string | URL, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  const { timeoutMs = 10000, ...rest } = init;
  const signal = rest.signal ? AbortSignal.any([rest.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  try {
    return await fetch(url, { ...rest, signal });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw new OutboundError(`Request to ${new URL(url).host} timed out after ${timeoutMs} ms`, 'timeout');
    throw err;
  }
}

/** Address ranges a user-supplied URL may never reach. Only globally routable unicast is allowed. */
export function isForbiddenAddress(ip: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(ip)) return true;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range === 'unicast') return false;
  if (range === 'loopback' && allowLoopback) return false;
  return true;
}

/** How long the save-time check waits for DNS before it counts the name as not resolving. */
const RESOLVE_TIMEOUT_MS = 5000;

/**
 * Whether a user-typed URL's host resolves only to addresses `createSafeFetch` would connect to (globally
 * routable unicast; loopback too with `allowLoopback`, which tests use). For refusing private, loopback,
 * link-local and metadata targets when a URL is saved; connections are still checked at connect time
 * (DNS can change in between). A name that does not resolve counts as not public: one answer for both,
 * so the check tells nobody which internal names exist.
 */
export async function resolvesToPublicAddresses(rawUrl: string, opts: { allowLoopback: boolean }): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return false;
  if (net.isIP(host)) return !isForbiddenAddress(host, opts.allowLoopback);
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      dns.promises.lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('DNS timeout')), RESOLVE_TIMEOUT_MS);
      }),
    ]);
    return addresses.length > 0 && addresses.every((a) => !isForbiddenAddress(a.address, opts.allowLoopback));
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export interface SafeFetchOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  /** Hops to follow; 0 answers a 3xx as it is (webhook deliveries never follow redirects). */
  maxRedirects?: number;
}

export type SafeFetch = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<{
  status: number;
  headers: Headers;
  text: () => Promise<string>;
  url: string;
}>;

export function createSafeFetch(opts: SafeFetchOptions): SafeFetch {
  const guardedLookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: (...a: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address, opts.allowLoopback));
      if (bad || list.length === 0) {
        return callback(new OutboundError(`${hostname} resolves to a forbidden address`, 'blocked_address'));
      }
      if ((options as dns.LookupOptions).all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  }) as typeof dns.lookup;

  const agent = new Agent({
    connect: { lookup: guardedLookup, timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  });

  const checkUrl = (raw: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundError('Invalid URL', 'invalid_url');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError('Only http and https URLs are allowed', 'invalid_url');
    if (url.username || url.password) throw new OutboundError('URLs with credentials are not allowed', 'invalid_url');
    // Literal addresses never go through DNS, so check them here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && isForbiddenAddress(host, opts.allowLoopback)) {
      throw new OutboundError(`${host} is a forbidden address`, 'blocked_address');
    }
    return url;
  };

  return async (rawUrl, init = {}) => {
    let url = checkUrl(rawUrl);
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; hop <= (opts.maxRedirects ?? 3); hop++) {
      let res;
      try {
        res = await undiciFetch(url, {
          method,
          headers: init.headers,
          body,
          redirect: 'manual',
          dispatcher: agent,
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        if (cause instanceof OutboundError) throw cause;
        if ((err as Error).name === 'TimeoutError') throw new OutboundError(`Timed out after ${opts.timeoutMs} ms`, 'timeout');
        throw new OutboundError(`Could not reach ${url.host}: ${String((cause as Error)?.message ?? (err as Error).message)}`, 'network');
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location && opts.maxRedirects !== 0) {
        await res.body?.cancel();
        url = checkUrl(new URL(location, url).toString());
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const final = url.toString();
      return { status: res.status, headers: res.headers as unknown as Headers, text: () => res.text(), url: final };
    }
    throw new OutboundError('Too many redirects', 'too_many_redirects');
  };
}

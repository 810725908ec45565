import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { EventEmitter } from 'node:events';
import { Agent, type Dispatcher } from 'undici';

/**
 * Outbound HTTP. Two doors:
 *  - `outboundFetch` for calls to the providers we configure (MLS, Meta, Stripe, OpenAI…): timeouts, nothing else.
 *  - `createSafeFetch` for URLs that users typed (webhooks, Zapier, CRM): every connection, including each
 *    redirect hop, is checked against the resolved address at connect time, so DNS rebinding cannot slip a
 *    private address in between the check and the connect.
 */

export class OutboundError extends Error {
  constructor(message: string, public readonly code: 'timeout' | 'blocked_address' | 'too_many_redirects' | 'network' | 'invalid_url' | 'too_large') {
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
  /** The whole call's deadline (connect, answer and its body, every hop): deliveries lease their message for this long. */
  timeoutMs: number;
  /** Hops to follow; 0 answers a 3xx as it is (webhook deliveries never follow redirects). */
  maxRedirects?: number;
  /** The most of an answer's body read (SAFE_FETCH_MAX_BODY_BYTES): past it the connection is closed and `text()` rejects. */
  maxBodyBytes?: number;
}

/**
 * What a user-typed URL may answer with at most: the receivers' answers we read are small (a CRM's JSON, a webhook
 * receiver's acknowledgement, of which an attempt keeps the first kilobyte); a bigger one is cut off rather than held
 * in memory, however much of it the deadline would let in.
 */
export const SAFE_FETCH_MAX_BODY_BYTES = 1024 * 1024;

/** The answer's headers: `get` as WHATWG Headers answers it (lower-case lookup, repeated values joined, `null` when absent). */
export interface SafeHeaders {
  get(name: string): string | null;
}

/**
 * The answer, with its body already read (within the deadline), so the connection is back in the pool
 * by the time the caller sees it.
 */
export interface SafeResponse {
  status: number;
  headers: SafeHeaders;
  text: () => Promise<string>;
  /** The URL that answered (after any redirects followed). */
  url: string;
}

export type SafeFetch = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<SafeResponse>;

type RawHeaders = Record<string, string | string[] | undefined>;

class ResponseHeaders implements SafeHeaders {
  constructor(private readonly raw: RawHeaders) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }
}

/** Sent when the caller names no User-Agent of its own. */
const DEFAULT_USER_AGENT = 'ListingAds/1.0';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The SSRF-safe client over undici's `request` (no WHATWG Request/Response/AbortSignal per call): one keep-alive
 * pool per origin, each new connection's address checked as it is made (guardedLookup), literal addresses checked
 * before, redirects followed by hand (each hop checked again), and every answer's body read or dumped so its
 * socket is reused. One timer per call bounds the whole of it.
 */
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
  const maxRedirects = opts.maxRedirects ?? 3;
  const maxBodyBytes = opts.maxBodyBytes ?? SAFE_FETCH_MAX_BODY_BYTES;

  /** The body as text, up to maxBodyBytes; past them (or a Content-Length saying so) the connection is closed. */
  const readBody = async (res: Dispatcher.ResponseData): Promise<string> => {
    const tooLarge = () => new OutboundError(`The answer is larger than ${maxBodyBytes} bytes`, 'too_large');
    const declared = Number(res.headers['content-length']);
    if (declared > maxBodyBytes) {
      res.body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBodyBytes) {
        res.body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
  };

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

  const outboundError = (err: unknown, url: URL): OutboundError => {
    if (err instanceof OutboundError) return err;
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof OutboundError) return cause;
    if (TIMEOUT_CODES.has((err as { code?: string }).code ?? '')) return new OutboundError(`Timed out after ${opts.timeoutMs} ms`, 'timeout');
    return new OutboundError(`Could not reach ${url.host}: ${String((err as Error).message)}`, 'network');
  };

  return async (rawUrl, init = {}) => {
    let url = checkUrl(rawUrl);
    let method = init.method ?? 'GET';
    let body = init.body;
    // What fetch sent unasked (an Accept, a User-Agent: some receivers refuse a request without one), unless the caller set its own.
    const given = init.headers;
    const headers = given && 'accept' in given && 'user-agent' in given ? given : { accept: '*/*', 'user-agent': DEFAULT_USER_AGENT, ...given };
    // The deadline: undici's own timeouts bound each phase; this bounds the sum (a slow drip of a body included).
    const deadline = new EventEmitter() as EventEmitter & { aborted: boolean; reason?: unknown };
    deadline.aborted = false;
    const timer = setTimeout(() => {
      deadline.aborted = true;
      deadline.reason = new OutboundError(`Timed out after ${opts.timeoutMs} ms`, 'timeout');
      deadline.emit('abort');
    }, opts.timeoutMs);
    try {
      for (let hop = 0; hop <= maxRedirects; hop++) {
        let res: Dispatcher.ResponseData;
        try {
          res = await agent.request({ origin: url.origin, path: url.pathname + url.search, method: method as Dispatcher.HttpMethod, headers, body, signal: deadline });
        } catch (err) {
          throw outboundError(err, url);
        }
        const status = res.statusCode;
        const location = res.headers.location;
        if (status >= 300 && status < 400 && typeof location === 'string' && maxRedirects !== 0) {
          // Read off (up to undici's dump limit, else the socket is closed) so the connection can be reused.
          await res.body.dump().catch(() => undefined);
          url = checkUrl(new URL(location, url).toString());
          if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          continue;
        }
        // The status stands even if the body fails half-way (as a WHATWG Response's would): then `text()` rejects.
        let text: Promise<string>;
        try {
          text = Promise.resolve(await readBody(res));
        } catch (err) {
          text = Promise.reject(outboundError(err, url));
          text.catch(() => undefined);
        }
        return { status, headers: new ResponseHeaders(res.headers), text: () => text, url: url.toString() };
      }
      throw new OutboundError('Too many redirects', 'too_many_redirects');
    } finally {
      clearTimeout(timer);
    }
  };
}

import dns from 'node:dns';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { REPO_ROOT } from '../../../platform/config';
import { isForbiddenAddress, OutboundError, outboundFetch } from '../../../platform/outbound/http';
import { AdPlatformError } from './ad-platform';

const DEMO_PHOTOS_PREFIX = '/demo-mls/photos/';
const UPLOADS_PREFIX = '/objects/uploads/';
/** A stored upload's object path, exactly: the prefix and the upload's id (a uuid), nothing else. */
const UPLOAD_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const DEMO_PHOTOS_DIR = path.join(REPO_ROOT, 'backend', 'assets', 'demo-mls', 'photos');
const MAX_IMAGE_BYTES = 30 * 1024 * 1024; // Meta's limit for ad images
const MAX_REDIRECTS = 3;

export interface ImageSourceOptions {
  /** Where our own paths are served: PUBLIC_URL, else this server on loopback. */
  selfOrigin: string;
  /** OUTBOUND_ALLOW_LOOPBACK (tests): lets foreign image URLs resolve to loopback. */
  allowLoopback: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * The bytes of an ad image, for the ad platform's upload:
 *  - bundled demo photos (/demo-mls/photos/…) from disk;
 *  - uploads (/objects/uploads/…) from our own server, which serves them (the uploads module exports no reader);
 *  - any other absolute URL — an MLS photo, or whatever URL the agent typed — through a connection that
 *    refuses private, loopback, link-local and metadata addresses at connect time (DESIGN §3), like the
 *    platform's safe fetch, which only returns text.
 */
export async function loadImageBytes(url: string, opts: ImageSourceOptions): Promise<Buffer> {
  if (url.startsWith(DEMO_PHOTOS_PREFIX)) {
    const file = decodeURIComponent(url.slice(DEMO_PHOTOS_PREFIX.length).split(/[?#]/)[0]);
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.')) throw new AdPlatformError(`Image ${url} is not a demo photo`, false);
    try {
      return await fs.readFile(path.join(DEMO_PHOTOS_DIR, file));
    } catch {
      throw new AdPlatformError(`Image ${url} does not exist`, false);
    }
  }
  if (url.startsWith('/')) {
    if (!url.startsWith(UPLOADS_PREFIX)) throw new AdPlatformError(`Image ${url} is not an upload or a demo photo`, false);
    // Strictly a stored upload: "/objects/uploads/../../api/ready" would otherwise make us fetch our own API
    // and post the answer to the ad platform as an image. The URL is rebuilt from the checked path alone.
    if (!UPLOAD_PATH.test(url)) throw new AdPlatformError(`Image ${url.slice(0, 200)} is not a stored upload`, false);
    const target = new URL(opts.selfOrigin);
    target.pathname = url;
    target.search = '';
    target.hash = '';
    return readBody(url, await fetchOrFail(url, () => outboundFetch(target, { signal: opts.signal, timeoutMs: opts.timeoutMs ?? 20000 })));
  }
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new AdPlatformError(`Image URL ${url} is not valid`, false);
  }
  return readBody(url, await fetchForeign(url, target, opts));
}

async function fetchForeign(original: string, first: URL, opts: ImageSourceOptions): Promise<Response> {
  let target = first;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new AdPlatformError(`Image URL ${original} is not http(s)`, false);
    if (target.username || target.password) throw new AdPlatformError(`Image URL ${original} carries credentials`, false);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && isForbiddenAddress(host, opts.allowLoopback)) throw new AdPlatformError(`Image URL ${original} points at a forbidden address`, false);
    const res = await fetchOrFail(original, () =>
      undiciFetch(target, {
        redirect: 'manual',
        dispatcher: guardedAgent(opts.allowLoopback),
        signal: opts.signal ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs ?? 20000)]) : AbortSignal.timeout(opts.timeoutMs ?? 20000),
      }) as unknown as Promise<Response>,
    );
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      target = new URL(location, target);
      continue;
    }
    return res;
  }
  throw new AdPlatformError(`Image URL ${original} redirects too often`, false);
}

async function fetchOrFail(url: string, go: () => Promise<Response>): Promise<Response> {
  try {
    return await go();
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof AdPlatformError) throw cause;
    if (err instanceof OutboundError) throw new AdPlatformError(`Image ${url}: ${err.message}`, true);
    throw new AdPlatformError(`Could not fetch image ${url}: ${String((cause as Error)?.message ?? (err as Error).message)}`, true);
  }
}

async function readBody(url: string, res: Response): Promise<Buffer> {
  if (!res.ok) {
    await res.body?.cancel();
    // A missing image stays missing; a server error may pass.
    throw new AdPlatformError(`Image ${url} answered ${res.status}`, res.status >= 500 || res.status === 429, { status: res.status });
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_IMAGE_BYTES) throw new AdPlatformError(`Image ${url} is larger than 30 MB`, false);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length === 0) throw new AdPlatformError(`Image ${url} is empty`, false);
  if (bytes.length > MAX_IMAGE_BYTES) throw new AdPlatformError(`Image ${url} is larger than 30 MB`, false);
  return bytes;
}

const agents = new Map<boolean, Agent>();
/** An undici agent whose every connection checks the resolved address (no DNS rebinding between check and connect). */
function guardedAgent(allowLoopback: boolean): Agent {
  let agent = agents.get(allowLoopback);
  if (!agent) {
    const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...a: unknown[]) => void) => {
      dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err);
        const list = addresses as dns.LookupAddress[];
        if (!list.length || list.some((a) => isForbiddenAddress(a.address, allowLoopback))) {
          return callback(new AdPlatformError(`Image host ${hostname} resolves to a forbidden address`, false));
        }
        if (options.all) return callback(null, list);
        return callback(null, list[0].address, list[0].family);
      });
    }) as typeof dns.lookup;
    agent = new Agent({ connect: { lookup } });
    agents.set(allowLoopback, agent);
  }
  return agent;
}

import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Context } from 'koa';
import compress from 'koa-compress';
import Negotiator from 'negotiator';
import { LRUCache } from 'lru-cache';

/** The Content-Type Koa gives a JSON body. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers smaller than this go uncompressed (koa-compress's threshold). */
export const COMPRESS_THRESHOLD = 1024;

type Encoding = 'br' | 'gzip' | 'deflate';

/** The encodings and their settings: the same for koa-compress (every answer) and for cached JSON (`sendJson`). */
const ENCODINGS: Record<Encoding, (text: Buffer) => Promise<Buffer>> = {
  br: (b) => promisify(zlib.brotliCompress)(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (b) => promisify(zlib.gzip)(b),
  deflate: (b) => promisify(zlib.deflate)(b),
};
/** In koa-compress's order of preference (it would prefer zstd where Node has it; browsers that send the header ask for these). */
const PREFERENCE: Encoding[] = ['br', 'gzip', 'deflate'];
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;

/** The compression layer of the app: koa-compress with these encodings, threshold and brotli quality. */
export function compression() {
  return compress({ threshold: COMPRESS_THRESHOLD, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }, gzip: {}, deflate: {}, zstd: false });
}

/**
 * A JSON answer as sent, held in a read cache (platform/cache/read-cache.ts) with its compressed forms beside it:
 * each made once, the first time a client asks for that encoding, and sent as stored bytes to every later client
 * that asks for it, instead of compressed anew per request.
 */
export class CachedJson {
  readonly bytes: Buffer;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(readonly text: string) {
    this.bytes = Buffer.from(text);
  }

  /** The body in `encoding`, made on the first call (concurrent callers share it). */
  encodedAs(encoding: Encoding): Promise<Buffer> {
    let body = this.encoded.get(encoding);
    if (!body) {
      body = ENCODINGS[encoding](this.bytes);
      this.encoded.set(encoding, body);
      // A failure is not kept: the next request tries again.
      body.catch(() => this.encoded.delete(encoding));
    }
    return body;
  }

  /** The encodings made so far (tests). */
  get encodings(): Encoding[] {
    return [...this.encoded.keys()];
  }
}

/** The encoding negotiated for an Accept-Encoding value: a few distinct values (one per browser family) come back on every request. */
const NEGOTIATED = new LRUCache<string, Encoding | 'identity'>({ max: 100 });
const NEGOTIATED_MAX_LENGTH = 200;

/** What negotiator picks for this Accept-Encoding (as koa-compress: none or empty means identity, '*' means gzip). */
function negotiate(accept: string | undefined): Encoding | null {
  const headers = { 'accept-encoding': accept === '*' ? 'gzip' : accept || 'identity' };
  // negotiator 1.x takes the server's preference among equally accepted encodings (its types predate the option).
  const negotiator = new Negotiator({ headers }) as unknown as { encoding(available: string[], opts: { preferred: string[] }): string | undefined };
  const chosen = negotiator.encoding([...PREFERENCE, 'identity'], { preferred: [...PREFERENCE, 'identity'] });
  return chosen && chosen !== 'identity' ? (chosen as Encoding) : null;
}

/** What koa-compress would choose for this answer: an encoding, or null to send it as it is. */
function chosenEncoding(ctx: Context, size: number): Encoding | null {
  if (ctx.method === 'HEAD' || size < COMPRESS_THRESHOLD || NO_TRANSFORM.test(ctx.response.get('Cache-Control'))) return null;
  const accept = ctx.request.headers['accept-encoding'];
  // The answer depends on the header's value alone: remembered for the last 100 values seen.
  if (accept === undefined || accept.length > NEGOTIATED_MAX_LENGTH) return negotiate(accept);
  let chosen = NEGOTIATED.get(accept);
  if (chosen === undefined) {
    chosen = negotiate(accept) ?? 'identity';
    NEGOTIATED.set(accept, chosen);
  }
  return chosen === 'identity' ? null : chosen;
}

/**
 * Sends a cached JSON answer: its stored bytes in the encoding the client accepts (Content-Encoding set, so the
 * compression layer leaves it alone; that layer has already said Vary: Accept-Encoding), or its text.
 * The status, Cache-Control and any ETag are the route's, as for any other answer.
 */
export async function sendJson(ctx: Context, body: CachedJson): Promise<void> {
  // What `ctx.type = 'json'` sets, without its media-type lookup per answer.
  ctx.set('Content-Type', JSON_TYPE);
  const encoding = chosenEncoding(ctx, body.bytes.length);
  if (!encoding) {
    // The compression layer would come to the same answer (too small, HEAD, no-transform, or not accepted):
    // it is told so, and skips its own checks.
    ctx.compress = false;
    ctx.body = body.text;
    return;
  }
  const bytes = await body.encodedAs(encoding);
  ctx.set('Content-Encoding', encoding);
  ctx.body = bytes;
}

import type { Context, Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { AppError } from '../errors';

/** Deeper than any payload of ours; a deeper body is refused before any code walks it recursively. */
export const MAX_BODY_DEPTH = 32;

/**
 * Keys that would shadow Object.prototype members (`body.toString`, `constructor`…) or reach the
 * prototype through assignment (`__proto__`). No payload of ours uses them; code that reads a member of
 * a parsed body must be able to trust it.
 */
const FORBIDDEN_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const refuse = (code: string, message: string) => new AppError(400, code, message);

/** What is wrong with a string anywhere in the body: NUL (never storable in PostgreSQL text) or a lone surrogate (not Unicode). */
function badString(s: string): AppError | null {
  if (s.includes('\u0000')) return refuse('request.control_character', 'The request contains a NUL character, which is not allowed in text');
  if (LONE_SURROGATE.test(s)) return refuse('request.invalid_unicode', 'The request contains text that is not valid Unicode (a lone UTF-16 surrogate)');
  return null;
}

/** Walks the parsed JSON without recursion: depth, keys and strings. */
function checkJson(root: unknown): void {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const err = badString(value);
      if (err) throw err;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) throw refuse('request.too_deep', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) throw refuse('request.forbidden_key', `The request body may not have a key named "${key.slice(0, 40)}"`);
      const err = badString(key);
      if (err) throw err;
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

/** zlib's errors (a body marked gzip/deflate/br that is not): the client's fault, not ours. */
function isDecodingError(err: { code?: unknown; errno?: unknown }): boolean {
  return typeof err.code === 'string' && /^Z_|^ERR_ZLIB|^ERR_BROTLI|^ERR__/.test(err.code);
}

/**
 * The JSON body layer: @koa/bodyparser (size limit, charset, Content-Encoding, `ctx.request.rawBody` kept
 * for signed webhooks), then checks every route can rely on. Anything wrong is a 400/413/415 with a
 * stable code, never a 500:
 * - a body marked Content-Encoding gzip/deflate/br that does not decode → 400 `request.bad_encoding`;
 * - NUL characters and lone surrogates anywhere in it, keys like `__proto__`/`toString`/`constructor`,
 *   and nesting deeper than 32 levels → 400.
 * When the body was refused before it was read to the end (too large, undecodable), the answer closes
 * the connection: the unread rest would otherwise be taken as the next request on a keep-alive socket.
 */
export function jsonBody(opts: { limit: string }) {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: opts.limit, encoding: 'utf-8' } as Parameters<typeof bodyParser>[0]);
  const done = async () => {};
  return async function parseJsonBody(ctx: Context, next: Next) {
    try {
      await parse(ctx, done);
    } catch (raw) {
      const err = raw as Error & { code?: string; errno?: number; status?: number };
      if (!ctx.req.readableEnded) {
        ctx.set('Connection', 'close');
        // Stop reading: nothing more of this request is wanted.
        ctx.req.unpipe();
        ctx.req.resume();
      }
      if (isDecodingError(err)) throw refuse('request.bad_encoding', 'The request body does not match its Content-Encoding');
      throw err;
    }
    const body = (ctx.request as { body?: unknown }).body;
    if (body !== undefined) checkJson(body);
    await next();
  };
}

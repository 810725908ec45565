import crypto from 'node:crypto';
import type { Context } from 'koa';

export interface PublicCacheOptions {
  /** Seconds a browser or CDN may use it without asking. */
  maxAge: number;
  /** Seconds a cache may serve it stale while it revalidates in the background. */
  staleWhileRevalidate: number;
  /** Weak when the body may differ in ways that do not matter (a page's fresh form token). */
  weak?: boolean;
}

/** A short tag of what the representation is made from. */
export function etagOf(parts: unknown): string {
  return crypto.createHash('sha256').update(typeof parts === 'string' ? parts : JSON.stringify(parts)).digest('base64url').slice(0, 27);
}

/**
 * Public, briefly cacheable answers (listing pages and their API): ETag + Cache-Control, and a 304 without
 * a body when the client's If-None-Match matches. Returns true when it answered 304 (send nothing more).
 */
export function answerConditionally(ctx: Context, tag: string, opts: PublicCacheOptions): boolean {
  ctx.set('Cache-Control', `public, max-age=${opts.maxAge}, stale-while-revalidate=${opts.staleWhileRevalidate}`);
  ctx.set('ETag', opts.weak ? `W/"${tag}"` : `"${tag}"`);
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return true;
  }
  return false;
}

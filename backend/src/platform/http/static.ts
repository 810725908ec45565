import path from 'node:path';
import { existsSync } from 'node:fs';
import type { Context, Next } from 'koa';
import send from 'koa-send';

export interface StaticSite {
  /** URL prefix, e.g. "/" or "/remotes/admin/". */
  prefix: string;
  root: string;
  /** Serve index.html for unknown paths below the prefix (client-side routing). */
  spa?: boolean;
  /** Allow other origins to load these files (a remote's JS loaded by a host elsewhere). */
  cors?: boolean;
}

const HASHED = /-[A-Za-z0-9_-]{8,}\.(js|css|woff2?|png|jpe?g|svg|webp|avif)$/;

/** Serves built frontends: hashed assets cached for a year, entry files (index.html, remoteEntry.js) revalidated. */
export function serveStatic(sites: StaticSite[]) {
  const ready = sites.filter((s) => existsSync(path.join(s.root, 'index.html')) || existsSync(path.join(s.root, 'remoteEntry.js')));
  // Longest prefix first, so /remotes/admin/ wins over /.
  ready.sort((a, b) => b.prefix.length - a.prefix.length);
  return async function serveBuiltFiles(ctx: Context, next: Next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path.startsWith('/objects/')) return next();
    const site = ready.find((s) => ctx.path.startsWith(s.prefix));
    if (!site) return next();
    const rel = ctx.path.slice(site.prefix.length) || 'index.html';
    const setHeaders = (res: { setHeader(k: string, v: string): void }, file: string) => {
      res.setHeader('Cache-Control', HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (site.cors) res.setHeader('Access-Control-Allow-Origin', '*');
    };
    try {
      await send(ctx, rel, { root: site.root, setHeaders, brotli: false, gzip: false });
      return;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
    // Files (anything with an extension) that do not exist are 404s, not the app shell.
    if (site.spa && !path.extname(rel) && ctx.accepts('html')) {
      await send(ctx, 'index.html', { root: site.root, setHeaders });
      return;
    }
    return next();
  };
}

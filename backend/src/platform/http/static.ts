import path from 'node:path';
import { existsSync } from 'node:fs';
import type { Context, Middleware, Next } from 'koa';
import send from 'koa-send';

export interface StaticSite {
  /** URL prefix, e.g. "/" or "/remotes/admin/". */
  prefix: string;
  root: string;
  /** Serve index.html for unknown paths below the prefix (client-side routing). */
  spa?: boolean;
  /** With spa: the client's routes; any other path gets the shell with a 404 status (its router shows the 404 page). */
  isRoute?: (pathname: string) => boolean;
  /** Allow other origins to load these files (a remote's JS loaded by a host elsewhere). */
  cors?: boolean;
}

const HASHED = /-[A-Za-z0-9_-]{8,}\.(js|css|woff2?|png|jpe?g|svg|webp|avif)$/;
/** The build writes name.br (brotli 11) and name.gz (gzip 9) beside each file worth compressing. */
const PRECOMPRESSED = /\.(br|gz)$/;

export interface StaticMiddleware {
  /** Files that exist: mounted before the session and body layers, so they cost no database read. */
  files: Middleware;
  /** index.html for client-side routes: mounted after every router, so server routes win. */
  appShell: Middleware;
}

/**
 * Serves built frontends: hashed assets cached for a year (immutable), entry files (index.html,
 * remoteEntry.js) revalidated. A precompressed file (.br, .gz) is sent when the browser accepts it,
 * so nothing is compressed per request.
 */
export function serveStatic(sites: StaticSite[]): StaticMiddleware {
  const ready = sites.filter((s) => existsSync(path.join(s.root, 'index.html')) || existsSync(path.join(s.root, 'remoteEntry.js')));
  // Longest prefix first, so /remotes/admin/ wins over /.
  ready.sort((a, b) => b.prefix.length - a.prefix.length);
  const siteOf = (ctx: Context) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
    if (ctx.path.startsWith('/api/') || ctx.path.startsWith('/objects/')) return undefined;
    return ready.find((s) => ctx.path.startsWith(s.prefix));
  };
  const headersFor = (site: StaticSite) => (res: { setHeader(k: string, v: string): void }, file: string) => {
    res.setHeader('Cache-Control', HASHED.test(file.replace(PRECOMPRESSED, '')) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (site.cors) res.setHeader('Access-Control-Allow-Origin', '*');
  };

  async function serveBuiltFiles(ctx: Context, next: Next) {
    const site = siteOf(ctx);
    if (!site) return next();
    let rel = ctx.path.slice(site.prefix.length) || 'index.html';
    // Client-side routes (no extension) go on to the routers; the app shell answers them last.
    if (!path.extname(rel)) return next();
    // `/?step=3`, `/?payment=success`: not the landing page that index.html holds prerendered; the shell.
    if (rel === 'index.html' && ctx.querystring && existsSync(path.join(site.root, 'shell.html'))) rel = 'shell.html';
    try {
      await send(ctx, rel, { root: site.root, setHeaders: headersFor(site), brotli: true, gzip: true });
      return;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
    return next();
  }

  async function serveAppShell(ctx: Context, next: Next) {
    const site = siteOf(ctx);
    // Files (anything with an extension) that do not exist are 404s, not the app shell.
    if (!site?.spa || path.extname(ctx.path) || !ctx.accepts('html')) return next();
    // index.html may be the prerendered landing page; the empty shell then sits beside it as shell.html.
    const shell = existsSync(path.join(site.root, 'shell.html')) ? 'shell.html' : 'index.html';
    await send(ctx, shell, { root: site.root, setHeaders: headersFor(site), brotli: true, gzip: true });
    // Not a soft 404: the same page, with the status that says what it is.
    if (site.isRoute && !site.isRoute(ctx.path)) ctx.status = 404;
  }

  return { files: serveBuiltFiles, appShell: serveAppShell };
}

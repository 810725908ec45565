import Koa from 'koa';
import type Keygrip from 'keygrip';
import Router from '@koa/router';
import session from 'koa-session';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Config } from './platform/config';
import { REPO_ROOT } from './platform/config';
import type { Db } from './platform/db/knex';
import type { Logger } from './platform/logger';
import type { Queue } from './platform/jobs/queue';
import { errorMiddleware } from './platform/http/error-middleware';
import { route } from './platform/http/route';
import { platformRoutes } from './platform/http/platform.routes';
import { notFound } from './platform/errors';
import { securityHeaders } from './platform/http/security-headers';
import { requestContext } from './platform/http/request-context';
import { csrfGuard } from './platform/http/csrf';
import { impersonationGuard } from './platform/http/impersonation';
import { postgresSessionStore, sessionCookieOptions } from './platform/http/session-store';
import { CookieKeys } from './platform/http/cookie-keys';
import { serveStatic } from './platform/http/static';
import { isAppRoute } from '@app/contracts';
import { serializeJsonOnce } from './platform/http/json-body';
import { compression } from './platform/http/compression';
import { jsonBody } from './platform/http/body';
import { buildRuntimeConfig } from './platform/http/runtime-config';
import { createSafeFetch } from './platform/outbound/http';
import { createReadCaches } from './platform/cache/read-cache';
import type { AppDeps } from './platform/deps';
import { moduleRouters, publicPageRouters } from './modules';
import { apiDocsRouter } from './api-docs';
import { httpMetrics } from './platform/metrics/http-metrics';
import { routesByPrefix } from './platform/http/routes-by-prefix';
import { TWILIO_SMS_WEBHOOK_PATH } from './modules/notifications';

/** Paths that providers call with their own signatures instead of our session cookie. */
export const WEBHOOK_PATHS = ['/api/webhooks/stripe', TWILIO_SMS_WEBHOOK_PATH];

export interface AppOptions {
  config: Config;
  db: Db;
  logger: Logger;
  queue: Queue;
  /** Serve the built frontends (production, e2e). */
  serveFrontends?: boolean;
}

function originsOf(urls: (string | undefined)[]): string[] {
  return urls.filter((u): u is string => !!u).map((u) => new URL(u).origin);
}

const HEALTHY = JSON.stringify({ status: 'ok' });

/**
 * Module routers as one router: a request is matched once against all of them, instead of passing through
 * each module's dispatch and allowedMethods layers in turn. No module router may have router-level
 * middleware, which a merge would spread to the other modules' routes.
 */
function mergedRouter(routers: Router[]): Router {
  const merged = new Router();
  for (const router of routers) {
    const shared = router.stack.find((layer) => layer.methods.length === 0);
    if (shared) throw new Error(`a module router has router-level middleware (${shared.path}): give it to its routes instead`);
    merged.use(router.routes());
  }
  return merged;
}

export function createApp({ config, db, logger, queue, serveFrontends = false }: AppOptions): Koa {
  // Behind TRUST_PROXY the client address is TRUST_PROXY_HOPS from the right of X-Forwarded-For: values a
  // client prepends are never taken as its address (rate limits, audit).
  const app = new Koa({ proxy: config.TRUST_PROXY, maxIpsCount: config.TRUST_PROXY_HOPS });
  // Shared per-app services that middleware reads from ctx.app.context (rate limits count in PostgreSQL).
  app.context.db = db;
  // Signs the session cookie. Without a configured secret a random one is used: sessions then end with the process.
  // keygrip's signatures with a native constant-time check (platform/http/cookie-keys.ts).
  app.keys = new CookieKeys([config.SESSION_SECRET ?? crypto.randomBytes(32).toString('hex')]) as unknown as Keygrip;

  const deps: AppDeps = {
    config,
    db,
    logger,
    queue,
    safeFetch: createSafeFetch({ allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK, timeoutMs: config.OUTBOUND_TIMEOUT_MS }),
    caches: createReadCaches(db, config.READ_CACHE_TTL_MS),
  };

  const remoteOrigins = originsOf([config.DASHBOARD_REMOTE_URL, config.ADMIN_REMOTE_URL]);
  // With GCS uploads the browser PUTs straight to Google's signed URL.
  const uploadOrigins = config.providers.uploads === 'gcs' ? ['https://storage.googleapis.com'] : [];
  // RED metrics per route, outermost so they see every request and its final status (only with METRICS_PORT:
  // the metrics are served on that port by the server, never here).
  if (config.METRICS_PORT !== undefined) app.use(httpMetrics());
  // The liveness probe first: load balancers call it every few seconds, and it needs no request id, access
  // log, policy headers, compression or session. It says only that this process answers (/api/ready checks
  // the database and the job queue).
  app.use(async function liveness(ctx, next) {
    if (ctx.path !== '/api/health' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'json';
    ctx.body = HEALTHY;
  });
  app.use(requestContext(logger));
  app.use(errorMiddleware());
  // Metrics are served on METRICS_PORT only (platform/metrics): here /metrics is a 404, never the app shell, so a
  // scraper pointed at the public port is told so.
  app.use(async function metricsNotHere(ctx, next) {
    if (ctx.path === '/metrics') throw notFound('metrics endpoint', 'platform');
    await next();
  });
  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'script-src': ["'self'", 'https://js.stripe.com', ...remoteOrigins],
          'connect-src': ["'self'", 'https://api.stripe.com', ...remoteOrigins, ...uploadOrigins],
          'style-src': ["'self'", "'unsafe-inline'", ...remoteOrigins],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com', 'https://www.openstreetmap.org'],
          'font-src': ["'self'", 'data:', ...remoteOrigins],
          'media-src': ["'self'", 'blob:'],
          'upgrade-insecure-requests': config.NODE_ENV === 'production' && config.PUBLIC_URL?.startsWith('https:') ? [] : null,
        },
      },
      // Remote entries and images may be loaded across origins by design.
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  app.use(compression());
  app.use(serializeJsonOnce());

  // Before the session and body layers: probes, runtime config and built files need no session, so they
  // cost no database read.
  const platform = new Router();
  // GET and HEAD are answered by the liveness layer at the top; the route stays mounted so other methods
  // hear 405 and the route list (api-docs) names it.
  route(platform, platformRoutes.health, (ctx) => {
    ctx.type = 'json';
    ctx.body = HEALTHY;
  });
  route(platform, platformRoutes.ready, async (ctx) => {
    const [database, jobs] = await Promise.all([
      db.raw('select 1').then(() => true, () => false),
      queue.isReady(),
    ]);
    ctx.status = database && jobs ? 200 : 503;
    ctx.body = { status: database && jobs ? 'ready' : 'not_ready', database, jobs };
  });
  route(platform, platformRoutes.runtimeConfig, (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = buildRuntimeConfig(config);
  });
  app.use(routesByPrefix(platform));
  app.use(platform.allowedMethods());
  const frontends = serveFrontends
    ? serveStatic([
        { prefix: '/remotes/dashboard/', root: path.join(REPO_ROOT, 'frontend-dashboard', 'dist'), cors: true },
        { prefix: '/remotes/admin/', root: path.join(REPO_ROOT, 'frontend-admin', 'dist'), cors: true },
        { prefix: '/', root: path.join(REPO_ROOT, 'frontend-host', 'dist'), spa: true, isRoute: isAppRoute },
      ])
    : null;
  if (frontends) app.use(frontends.files);
  // The public listing pages read no session either: a buyer's request (with or without a cookie) costs no
  // session read, and skips the CSRF and body layers it has no use for.
  const pages = mergedRouter(publicPageRouters(deps));
  app.use(routesByPrefix(pages));
  app.use(pages.allowedMethods());

  app.use(
    session({ ...sessionCookieOptions(config), store: postgresSessionStore(db, { cookie: sessionCookieOptions(config) }) }, app),
  );
  // An admin's Login As ends with the admin session, and every request under it is audited.
  app.use(impersonationGuard(db));
  app.use(csrfGuard({ exemptPaths: WEBHOOK_PATHS, trustedOrigins: config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [] }));
  // JSON bodies: size limit, Content-Encoding, and the checks every route relies on (platform/http/body.ts).
  app.use(jsonBody({ limit: config.BODY_LIMIT }));

  const apiDocs = apiDocsRouter();
  app.use(routesByPrefix(apiDocs));
  app.use(apiDocs.allowedMethods());

  const modules = mergedRouter(moduleRouters(deps));
  app.use(routesByPrefix(modules));
  app.use(modules.allowedMethods());

  if (frontends) app.use(frontends.appShell);
  return app;
}

// The floor under any agent-scoped read on this stack (bench:floor): Koa with only the layers the stack decides
// and the product cannot do without (koa-compress, koa-session on the product's signed cookie, @koa/router
// holding every route of the product's modules), answering BODY for GET /api/campaigns/:id and PAGE (HTML) for
// GET /listing/:mlsId. No database, no
// access log, no security headers, no CSRF check, no body parser, no validation: the product has each of them
// on top of this. Sessions live in this process's memory, read as the product's store reads its cache (a
// JSON text parsed per request).
//   PORT, BODY (the JSON text to answer), PAGE (the HTML), SESSION_SECRET, SID (the session id the cookie carries)
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './lib.mjs';

const dist = path.join(root, 'backend', 'dist');
const require = createRequire(path.join(dist, 'app.js'));
const Koa = require('koa');
const Router = require('@koa/router').default ?? require('@koa/router');
const session = require('koa-session').default ?? require('koa-session');
const compress = require('koa-compress').default ?? require('koa-compress');
const knex = require('knex');
const { CookieKeys } = require(path.join(dist, 'platform', 'http', 'cookie-keys.js'));
const { sessionCookieOptions } = require(path.join(dist, 'platform', 'http', 'session-store.js'));
const { loadConfig } = require(path.join(dist, 'platform', 'config.js'));
const { createLogger } = require(path.join(dist, 'platform', 'logger.js'));
const { createReadCaches } = require(path.join(dist, 'platform', 'cache', 'read-cache.js'));
const { moduleRouters, publicPageRouters } = require(path.join(dist, 'modules', 'index.js'));

const config = loadConfig(process.env);
const body = process.env.BODY;
const app = new Koa();
app.keys = new CookieKeys([process.env.SESSION_SECRET]);
app.use(compress({ threshold: 1024 }));
const sessions = new Map([[process.env.SID, JSON.stringify({ wizardAgentIds: [1] })]]);
app.use(
  session(
    {
      ...sessionCookieOptions(config),
      store: {
        async get(sid) {
          const json = sessions.get(sid);
          return json ? JSON.parse(json) : null;
        },
        async set(sid, data) {
          sessions.set(sid, JSON.stringify(data));
        },
        async destroy(sid) {
          sessions.delete(sid);
        },
      },
    },
    app,
  ),
);
// The modules' routers need a database handle to be built; this one never connects (no route of theirs runs).
const db = knex({ client: 'pg', connection: 'postgres://floor@127.0.0.1:9/floor', pool: { min: 0, max: 1 } });
const deps = { config, db, logger: createLogger('silent'), queue: {}, safeFetch: fetch, caches: createReadCaches(db, 0) };
const routes = new Router();
routes.get('/api/campaigns/:id', (ctx) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'json';
  ctx.body = body;
});
const page = Buffer.from(process.env.PAGE ?? '');
routes.get('/listing/:mlsId', (ctx) => {
  ctx.set('Cache-Control', 'public, max-age=60, stale-while-revalidate=600');
  ctx.type = 'html';
  ctx.body = page;
});
for (const router of [...publicPageRouters(deps), ...moduleRouters(deps)]) {
  // The answers above come first; the product's own routes for those paths stay in the table it walks.
  routes.use(router.routes());
}
app.use(routes.routes());
app.use(routes.allowedMethods());

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

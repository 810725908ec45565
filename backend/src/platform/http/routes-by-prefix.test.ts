import Koa from 'koa';
import Router from '@koa/router';
import request from 'supertest';
import { routesByPrefix } from './routes-by-prefix';

/** The same routes mounted as the whole router and by prefix: every request must be answered alike. */
function apps(spy?: (path: string) => void) {
  const make = (byPrefix: boolean) => {
    const router = new Router();
    const named = (name: string) => (ctx: Koa.Context) => {
      ctx.body = { name, params: ctx.params, route: ctx._matchedRoute };
    };
    router.get('/api/campaigns/:id', named('campaign'));
    router.patch('/api/campaigns/:id', named('patch campaign'));
    router.get('/api/campaigns/:id/wizard', named('wizard'));
    router.get('/api/agents/:id/listings', named('listings'));
    router.get('/api/agents/:id', named('agent'));
    // A route whose second segment is a parameter: it may take any /report/… path.
    router.get('/report/:token', named('report'));
    router.get('/api/:anything/echo', named('echo'));
    // A route that hands on, like passport's.
    router.get('/api/handoff/x', async (_ctx, next) => next());
    const app = new Koa();
    app.use(byPrefix ? routesByPrefix(router) : router.routes());
    app.use(router.allowedMethods());
    app.use(async (ctx) => {
      spy?.(ctx.path);
      ctx.body = { name: 'after the router' };
    });
    return app.callback();
  };
  return { whole: make(false), byPrefix: make(true) };
}

const cases: [string, string][] = [
  ['get', '/api/campaigns/7'],
  ['get', '/API/Campaigns/7'],
  ['get', '/api/campaigns/7/'],
  ['get', '/api/campaigns/7/wizard'],
  ['patch', '/api/campaigns/7'],
  ['post', '/api/campaigns/7'],
  ['delete', '/api/agents/3/listings'],
  ['get', '/api/agents/3/listings'],
  ['get', '/api/agents/3'],
  ['get', '/api/agents/3/unknown'],
  ['get', '/api/campaigns/echo'],
  ['get', '/api/agents/echo'],
  ['get', '/api/nothing/echo'],
  ['get', '/report/abc'],
  ['get', '/api'],
  ['get', '/api//campaigns/7'],
  ['get', '/api/handoff/x'],
  ['head', '/api/campaigns/7'],
  ['options', '/api/campaigns/7'],
];

/** Two routers in a row, as the app mounts them: public pages (no /api route), then the API. */
function chain(byPrefix: boolean) {
  const pages = new Router();
  pages.get('/listing/:mlsId', (ctx) => {
    ctx.body = { page: ctx.params.mlsId };
  });
  pages.get('/og/listing/:mlsId.png', (ctx) => {
    ctx.body = { image: ctx.params.mlsId };
  });
  const api = new Router();
  api.get('/api/health', (ctx) => {
    ctx.body = { ok: true };
  });
  api.post('/api/things', (ctx) => {
    ctx.body = { posted: true };
  });
  const app = new Koa();
  for (const router of [pages, api]) {
    app.use(byPrefix ? routesByPrefix(router) : router.routes());
    app.use(router.allowedMethods());
  }
  return app.callback();
}

const chainCases: [string, string][] = [
  ['get', '/listing/ABC'],
  ['post', '/listing/ABC'],
  ['get', '/og/listing/ABC.png'],
  ['get', '/api/health'],
  ['post', '/api/health'],
  ['options', '/api/health'],
  ['get', '/api/things'],
  ['get', '/api/other'],
  ['get', '/nowhere'],
  ['get', '/'],
  ['trace', '/api/health'],
  ['trace', '/nowhere'],
  ['patch', '/listing/ABC'],
];

describe('routesByPrefix', () => {
  it.each(chainCases)('answers %s %s through two routers as the whole routers do', async (method, path) => {
    const a = await request(chain(false))[method as 'get'](path);
    const b = await request(chain(true))[method as 'get'](path);
    expect({ status: b.status, body: b.body, allow: b.headers.allow }).toEqual({ status: a.status, body: a.body, allow: a.headers.allow });
  });

  it('passes an /api request by a router that has no /api route, without its dispatch', async () => {
    const pages = new Router();
    pages.get('/listing/:mlsId', (ctx) => {
      ctx.body = 'page';
    });
    const match = jest.spyOn(pages, 'match');
    const app = new Koa();
    app.use(routesByPrefix(pages));
    app.use((ctx) => {
      ctx.body = 'api';
    });
    expect((await request(app.callback()).get('/api/campaigns/7')).text).toBe('api');
    expect((await request(app.callback()).get('/listing/7')).text).toBe('page');
    expect(match).toHaveBeenCalledTimes(1);
  });

  it.each(cases)('answers %s %s as the whole router does', async (method, path) => {
    const { whole, byPrefix } = apps();
    const a = await request(whole)[method as 'get'](path);
    const b = await request(byPrefix)[method as 'get'](path);
    expect({ status: b.status, body: b.body, allow: b.headers.allow }).toEqual({ status: a.status, body: a.body, allow: a.headers.allow });
  });

  it('tries only the routes under the request path\'s first two segments (and those with a parameter there)', async () => {
    const router = new Router();
    const tried: string[] = [];
    for (const path of ['/api/campaigns/:id', '/api/agents/:id', '/api/:x/echo', '/api/leads/:id']) {
      router.get(path, (ctx) => {
        ctx.body = path;
      });
    }
    // Count the regular expressions each layer is tested with.
    for (const layer of router.stack) {
      const match = layer.match.bind(layer);
      layer.match = (p: string) => {
        tried.push(String(layer.path));
        return match(p);
      };
    }
    const app = new Koa();
    app.use(routesByPrefix(router));
    const res = await request(app.callback()).get('/api/campaigns/7');
    expect(res.text).toBe('/api/campaigns/:id');
    expect(tried).toEqual(['/api/campaigns/:id', '/api/:x/echo']);
  });

  it('carries the whole router, as a router middleware does', () => {
    const router = new Router();
    router.get('/api/a/b', (ctx) => {
      ctx.body = 1;
    });
    expect((routesByPrefix(router) as unknown as { router: Router }).router).toBe(router);
  });
});

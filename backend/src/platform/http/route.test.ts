import Koa from 'koa';
import Router from '@koa/router';
import supertest from 'supertest';
import { z } from 'zod';
import { bodyParser } from '@koa/bodyparser';
import { errorMiddleware } from './error-middleware';
import { configured, declaredSpecOf, defineRoutes, route, routeSpecIn } from './route';

const routes = defineRoutes({
  rename: {
    method: 'put', path: '/things/:id', auth: 'agent', tag: 'things', summary: 'Rename a thing',
    params: z.object({ id: z.coerce.number().int().positive() }), query: z.object({ dry: z.enum(['yes', 'no']).optional() }),
    body: z.object({ name: z.string().min(2, 'Name is too short') }), ok: { 200: z.object({ id: z.number(), name: z.string() }) },
  },
  upload: {
    method: 'post', path: '/things/:id/photo', auth: 'agent', tag: 'things', summary: 'A raw body: documented, not validated',
    body: { contentType: 'image/*', description: 'The image bytes' }, ok: { 200: z.object({ got: z.string() }) },
  },
});

function appWith(build: (router: Router) => void) {
  const app = new Koa();
  const router = new Router();
  build(router);
  app.use(errorMiddleware());
  app.use(bodyParser());
  app.use(router.routes());
  return { request: supertest(app.callback()), router };
}

describe('route()', () => {
  it('validates params, query and body with the spec, then hands the parsed input to the handler', async () => {
    const { request } = appWith((router) =>
      route(router, routes.rename, async (ctx, { params, query, body }) => {
        // Typed by the spec: params.id is a number (coerced), body.name a string.
        const id: number = params.id;
        ctx.body = { id, name: body.name, dry: query.dry ?? null };
      }),
    );
    await request.put('/things/7?dry=yes').send({ name: 'Lamp' }).expect(200, { id: 7, name: 'Lamp', dry: 'yes' });
  });

  it('answers bad input as validate() does: one 400 with every field message, and the handler never runs', async () => {
    let ran = false;
    const { request } = appWith((router) =>
      route(router, routes.rename, () => {
        ran = true;
      }),
    );
    const res = await request.put('/things/0?dry=maybe').send({ name: 'L' }).expect(400);
    expect(Object.keys(res.body.fields).sort()).toEqual(['dry', 'id', 'name']);
    expect(res.body.fields.name).toBe('Name is too short');
    expect(ran).toBe(false);
  });

  it('runs the given middleware before validating (a guard or rate limit answers first)', async () => {
    const { request } = appWith((router) =>
      route(
        router,
        routes.rename,
        async (ctx) => {
          ctx.status = 429;
          ctx.body = { message: 'slow down', code: 'rate_limited' };
        },
        () => undefined,
      ),
    );
    await request.put('/things/0').send({}).expect(429);
  });

  it('leaves a raw body to the handler, and marks the layer with its spec', async () => {
    const { request, router } = appWith((router) =>
      route(router, routes.upload, (ctx) => {
        ctx.body = { got: ctx.get('Content-Type') };
      }),
    );
    await request.post('/things/1/photo').set('Content-Type', 'image/png').send(Buffer.from('png')).expect(200, { got: 'image/png' });
    expect(routeSpecIn(router.stack[0].stack)).toBe(routes.upload);
  });

  it('configured(): validates with the given schema, and still names the declared spec', async () => {
    const relaxed = configured(routes.rename, { body: z.object({ name: z.string() }) });
    const { request, router } = appWith((router) =>
      route(router, relaxed, (ctx, { body }) => {
        ctx.body = { id: 1, name: body.name };
      }),
    );
    await request.put('/things/1').send({ name: 'L' }).expect(200);
    expect(declaredSpecOf(routeSpecIn(router.stack[0].stack)!)).toBe(routes.rename);
    expect(declaredSpecOf(routes.rename)).toBeUndefined();
  });
});

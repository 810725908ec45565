import Koa from 'koa';
import Router from '@koa/router';
import supertest from 'supertest';
import { z } from 'zod';
import { errorMiddleware } from './error-middleware';
import { validate } from './validate';

/** A GET route validated with `params` and `query`, answering its parsed input; `seen` keeps each request's input. */
function appWith(params: z.ZodType, query: z.ZodType, seen: unknown[] = []) {
  const app = new Koa();
  const router = new Router();
  router.get('/things/:id', validate({ params, query }), (ctx) => {
    const input = ctx.state.input as { params: Record<string, unknown>; query: Record<string, unknown> };
    seen.push(input);
    ctx.body = input;
    // A handler that changes its input changes only its own copy.
    input.params.changed = true;
    input.query.changed = true;
  });
  app.use(errorMiddleware());
  app.use(router.routes());
  return supertest(app.callback());
}

const idParams = z.object({ id: z.union([z.number(), z.string().regex(/^\d{1,10}$/, 'Invalid id')]).transform(Number).pipe(z.number().int().positive()) });
const pageQuery = z.object({ limit: z.coerce.number().int().min(1, 'limit too small').default(12), cursor: z.string().optional() });

describe('validate: path parameters and queries parsed once per raw value', () => {
  afterEach(() => jest.restoreAllMocks());

  it('parses a repeated path and query once, and gives every request its own copy of the result', async () => {
    const paramsParse = jest.spyOn(idParams, 'safeParse');
    const queryParse = jest.spyOn(pageQuery, 'safeParse');
    const seen: unknown[] = [];
    const request = appWith(idParams, pageQuery, seen);
    for (let i = 0; i < 3; i++) await request.get('/things/7?limit=5').expect(200, { params: { id: 7, changed: true }, query: { limit: 5, changed: true } });
    await request.get('/things/7').expect(200, { params: { id: 7, changed: true }, query: { limit: 12, changed: true } });
    await request.get('/things/8?limit=5').expect(200, { params: { id: 8, changed: true }, query: { limit: 5, changed: true } });
    expect(paramsParse).toHaveBeenCalledTimes(2);
    expect(queryParse).toHaveBeenCalledTimes(2);
    expect(new Set(seen.map((s) => (s as { params: unknown }).params)).size).toBe(seen.length);
  });

  it('parses a refused value anew every time, with its field messages', async () => {
    const paramsParse = jest.spyOn(idParams, 'safeParse');
    const request = appWith(idParams, pageQuery);
    for (let i = 0; i < 2; i++) {
      const res = await request.get('/things/abc?limit=0').expect(400);
      expect(res.body.fields).toEqual({ id: 'Invalid id', limit: 'limit too small' });
    }
    expect(paramsParse).toHaveBeenCalledTimes(2);
  });

  it('does not remember parses that hold objects, nor repeated query keys', async () => {
    const listQuery = z.object({ tags: z.union([z.string(), z.array(z.string())]).transform((t) => (Array.isArray(t) ? t : [t])) });
    const queryParse = jest.spyOn(listQuery, 'safeParse');
    const request = appWith(idParams, listQuery);
    await request.get('/things/1?tags=a').expect(200, { params: { id: 1, changed: true }, query: { tags: ['a'], changed: true } });
    await request.get('/things/1?tags=a').expect(200, { params: { id: 1, changed: true }, query: { tags: ['a'], changed: true } });
    await request.get('/things/1?tags=a&tags=b').expect(200, { params: { id: 1, changed: true }, query: { tags: ['a', 'b'], changed: true } });
    await request.get('/things/1?tags=a&tags=b').expect(200);
    expect(queryParse).toHaveBeenCalledTimes(4);
  });
});

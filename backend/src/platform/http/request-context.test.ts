import Koa from 'koa';
import pino from 'pino';
import supertest from 'supertest';
import { requestContext } from './request-context';

/** A logger whose lines land in `lines`, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { logger, lines };
}

describe('request context', () => {
  it("gives each request its own id and a logger whose lines carry it, and logs one access line per API request", async () => {
    const { logger, lines } = capturingLogger();
    const app = new Koa();
    app.use(requestContext(logger));
    app.use((ctx) => {
      ctx.state.log.warn({ step: 'handler' }, 'from the handler');
      ctx.body = { requestId: ctx.state.requestId };
    });
    const request = supertest(app.callback());

    const first = await request.get('/api/thing').set('X-Request-Id', 'req-1');
    const second = await request.get('/api/thing');

    expect(first.headers['x-request-id']).toBe('req-1');
    expect(first.body).toEqual({ requestId: 'req-1' });
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.body.requestId).toBe(second.headers['x-request-id']);

    const handlerLines = lines.filter((l) => l.step === 'handler');
    expect(handlerLines.map((l) => l.reqId)).toEqual(['req-1', second.headers['x-request-id']]);
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toEqual([
      expect.objectContaining({ reqId: 'req-1', method: 'GET', path: '/api/thing', status: 200 }),
      expect.objectContaining({ reqId: second.headers['x-request-id'], path: '/api/thing', status: 200 }),
    ]);
  });

  it('keeps what earlier layers put in ctx.state, and its logger out of enumeration', async () => {
    const { logger } = capturingLogger();
    const app = new Koa();
    app.use((ctx, next) => {
      ctx.state.before = 'kept';
      return next();
    });
    app.use(requestContext(logger));
    app.use((ctx) => {
      ctx.body = { keys: Object.keys(ctx.state).sort(), before: ctx.state.before };
    });
    const res = await supertest(app.callback()).get('/page');
    expect(res.body).toEqual({ keys: ['before', 'requestId'], before: 'kept' });
  });
});

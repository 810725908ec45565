import Koa from 'koa';
import Router from '@koa/router';
import request from 'supertest';
import { registry } from './index';
import { httpMetrics } from './http-metrics';

/** The RED middleware alone, on a bare Koa app: what it records for answers, errors that escape, and after a reset. */
function app() {
  const router = new Router();
  router.get('/ok/:id', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/unavailable/:id', () => {
    throw Object.assign(new Error('down'), { status: 503, expose: true });
  });
  router.get('/broken/:id', () => {
    throw new Error('a bug');
  });
  const koa = new Koa();
  koa.silent = true;
  koa.use(httpMetrics());
  koa.use(router.routes());
  return koa.callback();
}

async function count(route: string, statusClass: string): Promise<number> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`listing_ads_http_requests_total{route="${route}",method="GET",status_class="${statusClass}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('httpMetrics', () => {
  beforeEach(() => registry.resetMetrics());

  it('counts answers by route template and status class, and errors that escape by their status (else 500)', async () => {
    const server = app();
    await request(server).get('/ok/1').expect(200);
    await request(server).get('/ok/2').expect(200);
    await request(server).get('/unavailable/3').expect(503);
    await request(server).get('/broken/4').expect(500);
    expect(await count('/ok/:id', '2xx')).toBe(2);
    expect(await count('/unavailable/:id', '5xx')).toBe(1);
    expect(await count('/broken/:id', '5xx')).toBe(1);
    const text = await registry.metrics();
    expect(text).toMatch(/^listing_ads_http_request_duration_seconds_count\{route="\/ok\/:id",method="GET",status_class="2xx"\} 2$/m);
  });

  it('starts again from 0 after a reset of the registry, with the series it remembered forgotten', async () => {
    const server = app();
    await request(server).get('/ok/1').expect(200);
    expect(await count('/ok/:id', '2xx')).toBe(1);
    registry.resetMetrics();
    expect(await count('/ok/:id', '2xx')).toBe(0);
    await request(server).get('/ok/2').expect(200);
    expect(await count('/ok/:id', '2xx')).toBe(1);
  });
});

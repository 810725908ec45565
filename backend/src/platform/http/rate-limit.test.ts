import supertest from 'supertest';
import { createApp } from '../../app';
import { createLogger } from '../logger';
import { registry } from '../metrics';
import { consumeRateLimit } from './rate-limit';
import { createTestContext, type TestContext } from '../../../test/helpers';

// The admin login allows 5 failed tries per client address in its window.
const ADMIN_LOGIN_POINTS = 5;

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ env: { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '1' } });
});
afterAll(() => t.close());

const tryLogin = (client: ReturnType<typeof supertest>, xff: string) =>
  client.post('/api/admin/login').set('X-Forwarded-For', xff).send({ password: 'wrong-password' });

/** listing_ads_rate_limit_refusals_total for one limiter. */
async function refusals(limiter: string): Promise<number> {
  const metric = await registry.getSingleMetric('listing_ads_rate_limit_refusals_total')!.get();
  return metric.values.find((v) => v.labels.limiter === limiter)?.value ?? 0;
}

describe('rate limits', () => {
  it('take the client address from the right of X-Forwarded-For, so rotating left-most values cannot dodge them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ADMIN_LOGIN_POINTS + 2; i++) {
      statuses.push((await tryLogin(t.request, `198.51.100.${i + 1}, 203.0.113.7`)).status);
    }
    expect(statuses.slice(0, ADMIN_LOGIN_POINTS)).toEqual(Array(ADMIN_LOGIN_POINTS).fill(401));
    const refusedBefore = await refusals('admin-login-failures');
    const limited = await tryLogin(t.request, '192.0.2.200, 203.0.113.7');
    expect(limited.status).toBe(429);
    expect(await refusals('admin-login-failures')).toBe(refusedBefore + 1);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client (another right-most address) has its own budget.
    expect((await tryLogin(t.request, '198.51.100.1, 203.0.113.8')).status).toBe(401);
  });

  it('are shared by every app process on one database', async () => {
    // A second app (as a second process would run it) on the same database.
    const second = supertest(createApp({ config: t.config, db: t.db, logger: createLogger('silent'), queue: t.queue }).callback());
    for (let i = 0; i < ADMIN_LOGIN_POINTS; i++) {
      const client = i % 2 === 0 ? t.request : second;
      expect((await tryLogin(client, '203.0.113.50')).status).toBe(401);
    }
    expect((await tryLogin(second, '203.0.113.50')).status).toBe(429);
    expect((await tryLogin(t.request, '203.0.113.50')).status).toBe(429);
    const rows = await t.db('rate_limits').where('key', 'like', 'admin-login-failures:%');
    expect(rows.length).toBeGreaterThan(0);
  });

  it('count their refusals per limiter name in the metrics', async () => {
    const limit = { name: 'test-refusals', points: 2, durationSeconds: 60 };
    await consumeRateLimit(t.db, limit, 'k');
    await consumeRateLimit(t.db, limit, 'k');
    expect(await refusals('test-refusals')).toBe(0);
    await expect(consumeRateLimit(t.db, limit, 'k')).rejects.toMatchObject({ status: 429 });
    await expect(consumeRateLimit(t.db, limit, 'k')).rejects.toMatchObject({ status: 429 });
    expect(await refusals('test-refusals')).toBe(2);
  });

  it('count in an unlogged table: a count commits without waiting for a WAL flush', async () => {
    const { rows } = await t.db.raw(`select relpersistence from pg_class where relname = 'rate_limits' and relkind = 'r'`);
    expect(rows).toEqual([{ relpersistence: 'u' }]);
  });
});

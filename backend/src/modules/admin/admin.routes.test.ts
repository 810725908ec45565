import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const sessionCookie = (res: { headers: Record<string, unknown> }) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('la.sid='))?.split(';')[0];

describe('POST /api/admin/login', () => {
  it('refuses a wrong password with the spec text, and audits it', async () => {
    const res = await t.request.post('/api/admin/login').send({ password: 'wrong' }).expect(401);
    expect(res.body).toEqual({ message: 'Invalid admin password', code: 'admin.invalid_password' });
    const row = await t.db('auditLog').orderBy('id', 'desc').first();
    expect(row).toMatchObject({ actorType: 'admin', action: 'admin.login_failed' });
    expect(JSON.stringify(row)).not.toContain('wrong');
  });

  it('requires a password', async () => {
    const res = await t.request.post('/api/admin/login').send({ password: '' }).expect(400);
    expect(res.body.fields).toEqual({ password: 'Password is required' });
  });

  it('logs in with the configured password under a new session id', async () => {
    const browser = t.newSession();
    const first = await browser.post('/api/agents').send({ name: 'Kim Ode', state: 'NY', manualEntry: true }).expect(201);
    const before = sessionCookie(first);
    const res = await browser.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    expect(res.body).toEqual({ ok: true });
    const after = sessionCookie(res);
    expect(after).toBeDefined();
    expect(after).not.toEqual(before);
    const sessions = await t.db('sessions').select('data');
    expect(sessions.some((s: { data: { admin?: boolean } }) => s.data.admin === true)).toBe(true);
    const row = await t.db('auditLog').where({ action: 'admin.login' }).first();
    expect(row).toBeDefined();
  });

  it('rate limits repeated attempts from one client', async () => {
    // A fresh app: the limiter's budget is per process.
    const fresh = await createTestContext();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fresh.request.post('/api/admin/login').send({ password: `guess-${i}` });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses[6]).toBe(429);
    const limited = await fresh.request.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    await fresh.close();
  });
});

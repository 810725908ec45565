import crypto from 'node:crypto';
import { API_KEYS_PER_AGENT } from '@app/contracts';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';
import { wizardBrowser } from '../../../test/factories';
import { limiterFor } from '../../platform/http/rate-limit';
import { API_KEY_RATE_LIMIT } from './api-keys';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterEach(() => t.db('rate_limits').delete());
afterAll(() => t.close());

const keysUrl = (agentId: number) => `/api/agents/${agentId}/api-keys`;

describe('API keys on the dashboard', () => {
  it('are shown once, stored only as a SHA-256 hash, listed without the key, named, with their scopes', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    const { body: created } = await session.post(keysUrl(agent.id)).send({ name: 'Zapier' }).expect(201);
    expect(created).toMatchObject({ name: 'Zapier', scopes: ['leads:read', 'hooks:write'], lastUsedAt: null });
    expect(created.key).toMatch(/^la_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 7));

    const row = await t.db('agentApiKeys').where({ id: created.id }).first();
    expect(row.keyHash).toBe(crypto.createHash('sha256').update(created.key).digest('hex'));
    // The key itself is nowhere in the row.
    expect(JSON.stringify(row)).not.toContain(created.key.slice(7));

    const { body: listed } = await session.get(keysUrl(agent.id)).expect(200);
    expect(listed).toEqual([{ id: created.id, name: 'Zapier', prefix: created.prefix, scopes: ['leads:read', 'hooks:write'], createdAt: created.createdAt, lastUsedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const audit = await t.db('auditLog').where({ action: 'api_key.created', targetId: String(created.id) }).first();
    expect(audit).toMatchObject({ actorType: 'agent', actorId: String(agent.id) });
    expect(JSON.stringify(audit.details)).not.toContain(created.key);
  });

  it('refuses a nameless key, unknown scopes, and an eleventh key', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    const blank = await session.post(keysUrl(agent.id)).send({ name: '  ' }).expect(400);
    expect(blank.body.fields.name).toBe('Give the key a name');
    const scope = await session.post(keysUrl(agent.id)).send({ name: 'x', scopes: ['leads:write'] }).expect(400);
    expect(Object.keys(scope.body.fields)[0]).toMatch(/^scopes/);
    await session.post(keysUrl(agent.id)).send({ name: 'x', scopes: [] }).expect(400);
    for (let i = 0; i < API_KEYS_PER_AGENT; i++) await session.post(keysUrl(agent.id)).send({ name: `k${i}` }).expect(201);
    expect((await session.post(keysUrl(agent.id)).send({ name: 'one too many' }).expect(409)).body.code).toBe('agents.api_key_limit');
  });

  it("are the agent's own: another session, and another agent's key id, get 404; Login As may not create or revoke", async () => {
    const a = await wizardBrowser(t.newSession());
    const b = await wizardBrowser(t.newSession());
    const { body: keyA } = await a.session.post(keysUrl(a.agent.id)).send({ name: 'A' }).expect(201);
    await b.session.get(keysUrl(a.agent.id)).expect(404);
    await b.session.post(keysUrl(a.agent.id)).send({ name: 'B' }).expect(404);
    await b.session.delete(`${keysUrl(a.agent.id)}/${keyA.id}`).expect(404);
    // B's own route with A's key id: not B's key.
    expect((await b.session.delete(`${keysUrl(b.agent.id)}/${keyA.id}`).expect(404)).body.code).toBe('agents.api_key_not_found');

    // An admin viewing as the agent.
    await t.db('agents').where({ id: a.agent.id }).update({ email: `owner-${Date.now()}@example.com` });
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${a.agent.id}`).expect(302);
    await admin.get(keysUrl(a.agent.id)).expect(200);
    expect((await admin.post(keysUrl(a.agent.id)).send({ name: 'admin' }).expect(403)).body.code).toBe('auth.impersonation_read_only');
    expect((await admin.delete(`${keysUrl(a.agent.id)}/${keyA.id}`).expect(403)).body.code).toBe('auth.impersonation_read_only');
  });
});

describe('the public API with a key', () => {
  async function agentWithKey(scopes?: string[]) {
    const { session, agent } = await wizardBrowser(t.newSession());
    const { body } = await session.post(keysUrl(agent.id)).send({ name: 'Integration', ...(scopes ? { scopes } : {}) }).expect(201);
    return { session, agent, key: body.key as string, keyId: body.id as number };
  }

  it('authenticates with Authorization: Bearer or X-API-Key, and refuses none, a wrong one and a malformed header', async () => {
    const { agent, key, keyId } = await agentWithKey();
    const me = await t.request.get('/api/v1/me').set('Authorization', `Bearer ${key}`).expect(200);
    expect(me.body).toEqual({ id: agent.id, name: agent.name, email: null, brokerage: null, state: 'FL', apiKey: { id: keyId, name: 'Integration', scopes: ['leads:read', 'hooks:write'] } });
    expect(me.headers['cache-control']).toBe('no-store');
    await t.request.get('/api/v1/me').set('X-API-Key', key).expect(200);

    const none = await t.request.get('/api/v1/me').expect(401);
    expect(none.body.code).toBe('api.key_required');
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await t.request.get('/api/v1/me').set('Authorization', `Bearer ${key}x`).expect(401)).body.code).toBe('api.key_invalid');
    expect((await t.request.get('/api/v1/me').set('Authorization', `Basic ${key}`).expect(401)).body.code).toBe('api.key_required');
    // A session cookie is no key.
    const { session } = await agentWithKey();
    await session.get('/api/v1/me').expect(401);
  });

  it('refuses a route outside the key’s scopes with 403', async () => {
    const reader = await agentWithKey(['leads:read']);
    await t.request.get('/api/v1/leads').set('X-API-Key', reader.key).expect(200);
    const refused = await t.request.post('/api/v1/hooks').set('X-API-Key', reader.key).send({ targetUrl: 'https://hooks.example.com/a', event: 'lead.created' }).expect(403);
    expect(refused.body).toMatchObject({ code: 'api.insufficient_scope', message: 'This API key does not have the hooks:write scope' });
    const hooker = await agentWithKey(['hooks:write']);
    expect((await t.request.get('/api/v1/leads').set('X-API-Key', hooker.key).expect(403)).body.message).toBe('This API key does not have the leads:read scope');
    expect(await t.db('notificationHooks').where({ agentId: reader.agent.id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('stops working the moment it is revoked; the other keys go on', async () => {
    const { session, agent, key, keyId } = await agentWithKey();
    const { body: other } = await session.post(keysUrl(agent.id)).send({ name: 'Make' }).expect(201);
    await t.request.get('/api/v1/me').set('X-API-Key', key).expect(200);
    const { body: revoked } = await session.delete(`${keysUrl(agent.id)}/${keyId}`).expect(200);
    expect(revoked.id).toBe(keyId);
    expect((await t.request.get('/api/v1/me').set('X-API-Key', key).expect(401)).body.code).toBe('api.key_invalid');
    await t.request.get('/api/v1/me').set('X-API-Key', other.key).expect(200);
    expect((await session.get(keysUrl(agent.id)).expect(200)).body.map((k: { id: number }) => k.id)).toEqual([other.id]);
    await session.delete(`${keysUrl(agent.id)}/${keyId}`).expect(404);
    expect(await t.db('auditLog').where({ action: 'api_key.revoked', targetId: String(keyId) }).first()).toBeTruthy();
  });

  it('is rate limited per key in PostgreSQL: 429 with Retry-After when spent, other keys unaffected', async () => {
    const a = await agentWithKey();
    const b = await agentWithKey();
    // Spend all but one point of A's budget, as another process would, straight in the shared table.
    await limiterFor(t.db, API_KEY_RATE_LIMIT).penalty(String(a.keyId), API_KEY_RATE_LIMIT.points - 1);
    await t.request.get('/api/v1/me').set('X-API-Key', a.key).expect(200);
    const limited = await t.request.get('/api/v1/me').set('X-API-Key', a.key).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await t.request.get('/api/v1/me').set('X-API-Key', b.key).expect(200);
  });

  it('audits every use, aggregated per key, minute, route and status, and keeps the last-used time', async () => {
    const { session, agent, key, keyId } = await agentWithKey(['leads:read']);
    for (let i = 0; i < 3; i++) await t.request.get('/api/v1/me').set('X-API-Key', key).expect(200);
    await t.request.post('/api/v1/hooks').set('X-API-Key', key).send({ targetUrl: 'https://hooks.example.com/a', event: 'lead.created' }).expect(403);
    await t.request.get('/api/v1/leads?limit=0').set('X-API-Key', key).expect(400);
    const rows = await t.db('agentApiKeyUsage').where({ apiKeyId: keyId }).orderBy('route').orderBy('status').select('route', 'status', 'count');
    expect(rows).toEqual([
      { route: 'GET /api/v1/leads', status: 400, count: 1 },
      { route: 'GET /api/v1/me', status: 200, count: 3 },
      { route: 'POST /api/v1/hooks', status: 403, count: 1 },
    ]);
    const [listed] = (await session.get(keysUrl(agent.id)).expect(200)).body;
    expect(Date.now() - Date.parse(listed.lastUsedAt)).toBeLessThan(60_000);
  });
});

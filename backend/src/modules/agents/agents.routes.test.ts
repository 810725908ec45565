import { createTestContext, type TestContext } from '../../../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const manual = { name: 'Dana Whitfield', state: 'fl', manualEntry: true, brokerage: null, phone: null, email: null };

describe('POST /api/agents', () => {
  it('creates a manual agent, bound to the browser session that made it', async () => {
    const browser = t.newSession();
    const res = await browser.post('/api/agents').send(manual).expect(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Dana Whitfield', state: 'FL', hasPassword: false, mlsId: null });
    expect(res.body).not.toHaveProperty('passwordHash');
    const row = await t.db('agents').where({ id: res.body.id }).first();
    expect(row.source).toBe('manual');

    const list = await browser.get('/api/agents').expect(200);
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([res.body.id]);
    await browser.get(`/api/agents/${res.body.id}`).expect(200);
  });

  it('requires an mlsId unless it is a manual entry', async () => {
    const res = await t.request.post('/api/agents').send({ name: 'Sam', state: 'TX' }).expect(400);
    expect(res.body.fields).toEqual({ mlsId: 'MLS ID is required' });
  });

  it('gives the spec messages for missing name and state', async () => {
    const res = await t.request.post('/api/agents').send({ name: '  ', state: '', manualEntry: true }).expect(400);
    expect(res.body.fields).toEqual({ name: 'Name is required', state: 'State is required' });
  });
});

describe('ownership', () => {
  it('another session cannot read the agent and does not see it in its list', async () => {
    const owner = t.newSession();
    const { body: agent } = await owner.post('/api/agents').send(manual).expect(201);
    const stranger = t.newSession();
    const res = await stranger.get(`/api/agents/${agent.id}`).expect(403);
    expect(res.body.code).toBe('agents.forbidden');
    const list = await stranger.get('/api/agents').expect(200);
    expect(list.body).toEqual([]);
  });

  it('once the agent has a password, the creating session needs a login', async () => {
    const owner = t.newSession();
    const { body: agent } = await owner.post('/api/agents').send(manual).expect(201);
    await t.db('agents').where({ id: agent.id }).update({ password_hash: '$argon2id$stub-for-test', email: 'dana@example.com' });
    const res = await owner.get(`/api/agents/${agent.id}`).expect(403);
    expect(res.body.code).toBe('agents.login_required');
    expect((await owner.get('/api/agents')).body).toEqual([]);
  });

  it('an unknown agent is a 404', async () => {
    const res = await t.request.get('/api/agents/999999').expect(404);
    expect(res.body).toEqual({ message: 'Agent not found', code: 'agents.not_found' });
  });
});

describe('GET /api/auth/me', () => {
  it('is 401 without a login', async () => {
    const res = await t.request.get('/api/auth/me').expect(401);
    expect(res.body.code).toBe('auth.required');
  });
});

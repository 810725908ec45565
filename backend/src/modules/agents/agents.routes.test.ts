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
  it('another session cannot read the agent (404, like a missing one) and does not see it in its list', async () => {
    const owner = t.newSession();
    const { body: agent } = await owner.post('/api/agents').send(manual).expect(201);
    const stranger = t.newSession();
    const res = await stranger.get(`/api/agents/${agent.id}`).expect(404);
    // The same answer as for an id that does not exist: the id's existence is not revealed.
    expect(res.body).toEqual((await stranger.get('/api/agents/99999999').expect(404)).body);
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

describe('POST /api/agents for an agent found in the MLS', () => {
  const search = (browser: ReturnType<TestContext['newSession']>, name = 'Sarah Johnson', state = 'FL') =>
    browser.post('/api/mls/search-agent').send({ name, state }).expect(200);

  it('is refused (403) for an mlsId this session did not find', async () => {
    const browser = t.newSession();
    const res = await browser.post('/api/agents').send({ name: 'Sarah Johnson', state: 'FL', email: null, mlsId: 'FL30418' }).expect(403);
    expect(res.body).toEqual({
      message: 'Please search for your name in the MLS first: this MLS ID was not found in this session.',
      code: 'agents.mls_search_required',
    });
    // Finding someone else does not open another member's mlsId either.
    await search(browser, 'Michael Chen', 'CA');
    await browser.post('/api/agents').send({ name: 'Sarah Johnson', state: 'FL', mlsId: 'FL30418' }).expect(403);
    expect(await t.db('agents').where({ mlsId: 'FL30418' }).count({ n: '*' }).first()).toEqual({ n: '0' });
  });

  it('creates an MLS agent with the MLS’s own data, bound to the session, and reuses it when the wizard repeats', async () => {
    const browser = t.newSession();
    const { body: found } = await search(browser);
    // The client cannot rename the member it found.
    const first = await browser.post('/api/agents').send({ ...found, name: 'Somebody Else', brokerage: null, phone: null }).expect(201);
    expect(first.body).toMatchObject({ name: 'Sarah Johnson', state: 'FL', email: 'sarah.johnson@bayshore-realty.example', mlsId: 'FL30418', brokerage: 'Bayshore Realty Group', phone: '(813) 555-0142', hasPassword: false });
    const row = await t.db('agents').where({ id: first.body.id }).first();
    expect(row.source).toBe('mls');

    await search(browser);
    const again = await browser.post('/api/agents').send(found).expect(200);
    expect(again.body.id).toBe(first.body.id);
    await browser.get(`/api/agents/${first.body.id}`).expect(200);

    // Another browser finding the same member (no account yet) gets its own agent, not this one.
    const other = t.newSession();
    await search(other);
    const theirs = await other.post('/api/agents').send(found).expect(201);
    expect(theirs.body.id).not.toBe(first.body.id);
    await other.get(`/api/agents/${first.body.id}`).expect(404);
  });

  it('an MLS ID typed on a manual agent is display data: it neither takes the member’s account nor locks the member out', async () => {
    // A manual agent claims Emily Rodriguez's MLS ID and has an account.
    const squatter = t.newSession();
    const { body: fake } = await squatter.post('/api/agents').send({ ...manual, mlsId: 'TX52890' }).expect(201);
    expect(fake.mlsId).toBe('TX52890');
    await t.db('agents').where({ id: fake.id }).update({ passwordHash: '$argon2id$stub-for-test', email: 'squatter@example.com' });
    await t.db.raw(`update sessions set data = data || jsonb_build_object('agentId', ?::int) where data->'ownedAgentIds' @> to_jsonb(?::int)`, [fake.id, fake.id]);

    // The real member still gets her own MLS agent (201, not "please log in")…
    const real = t.newSession();
    const { body: found } = await search(real, 'Emily Rodriguez', 'TX');
    const mine = await real.post('/api/agents').send(found).expect(201);
    expect(mine.body).toMatchObject({ name: 'Emily Rodriguez', mlsId: 'TX52890', hasPassword: false });
    expect(mine.body.id).not.toBe(fake.id);
    // …and the squatter, even logged in as the manual agent, is not handed the member's agent.
    await search(squatter, 'Emily Rodriguez', 'TX');
    const theirs = await squatter.post('/api/agents').send(found).expect(201);
    expect(theirs.body.id).not.toBe(fake.id);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('asks for a login (409) when an agent with that mlsId already has an account, and never hands it over', async () => {
    const owner = t.newSession();
    const { body: found } = await search(owner, 'Emily Rodriguez', 'TX');
    const { body: agent } = await owner.post('/api/agents').send(found).expect(201);
    await t.db('agents').where({ id: agent.id }).update({ passwordHash: '$argon2id$stub-for-test' });

    for (const browser of [t.newSession(), owner]) {
      await search(browser, 'Emily Rodriguez', 'TX');
      const res = await browser.post('/api/agents').send(found).expect(409);
      expect(res.body).toEqual({ message: 'An account already exists for this agent. Please log in.', code: 'agents.login_required' });
      expect(JSON.stringify(res.body)).not.toContain(String(agent.id));
    }
    expect(await t.db('agents').where({ mlsId: 'TX52890' }).where('id', '>=', agent.id).count({ n: '*' }).first()).toEqual({ n: '1' });
  });

  it('hands the agent back to a session logged in as that agent', async () => {
    const owner = t.newSession();
    const { body: found } = await search(owner, 'Michael Chen', 'CA');
    const { body: agent } = await owner.post('/api/agents').send(found).expect(201);
    await t.db('agents').where({ id: agent.id }).update({ passwordHash: '$argon2id$stub-for-test' });
    // Stand-in for a login: the session store row of this browser now names the agent.
    await t.db.raw(`update sessions set data = data || jsonb_build_object('agentId', ?::int) where data->'ownedAgentIds' @> to_jsonb(?::int)`, [agent.id, agent.id]);
    await search(owner, 'Michael Chen', 'CA');
    const res = await owner.post('/api/agents').send(found).expect(200);
    expect(res.body).toMatchObject({ id: agent.id, hasPassword: true });
  });
});

describe('abuse limits', () => {
  it('POST /api/agents is rate limited per client address: the 101st within 10 minutes is 429', async () => {
    await t.db('rate_limits').delete();
    const browser = t.newSession();
    for (let i = 0; i < 100; i++) await browser.post('/api/agents').send(manual).expect(201);
    const res = await t.newSession().post('/api/agents').send(manual).expect(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await t.db('rate_limits').delete();
  });
});

import { createTestContext, type TestContext } from '../../../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const manual = { name: 'Dana Whitfield', state: 'fl', manualEntry: true, brokerage: null, phone: null, email: null };

describe('POST /api/agents', () => {
  it("creates a manual agent; the browser that made it gets the wizard's draft access, not the dashboard", async () => {
    const browser = t.newSession();
    const res = await browser.post('/api/agents').send(manual).expect(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Dana Whitfield', state: 'FL', hasPassword: false, verified: false, access: 'draft', mlsId: null });
    expect(res.body).not.toHaveProperty('passwordHash');
    const row = await t.db('agents').where({ id: res.body.id }).first();
    expect(row.source).toBe('manual');

    await browser.get(`/api/agents/${res.body.id}`).expect(200);
    // Select Agent lists the agent a browser is signed in as: a wizard browser is signed in as nobody.
    expect((await browser.get('/api/agents').expect(200)).body).toEqual([]);
    expect((await browser.get(`/api/agents/${res.body.id}/leads`).expect(403)).body.code).toBe('agents.login_required');
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

  it('an account with a password changes nothing for the creating browser: it keeps its draft access, and the dashboard still needs signing in', async () => {
    const owner = t.newSession();
    const { body: agent } = await owner.post('/api/agents').send(manual).expect(201);
    await t.db('agents').where({ id: agent.id }).update({ password_hash: '$argon2id$stub-for-test', email: 'dana@example.com', verified_at: new Date() });
    expect((await owner.get(`/api/agents/${agent.id}`).expect(200)).body).toMatchObject({ access: 'draft', hasPassword: true, verified: true });
    expect((await owner.get(`/api/agents/${agent.id}/notification-settings`).expect(403)).body.code).toBe('agents.login_required');
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

  it('one agent per member: the first find makes it (201), every later find in any browser answers the same agent (200)', async () => {
    const browser = t.newSession();
    const { body: found } = await search(browser);
    // The client cannot rename the member it found.
    const first = await browser.post('/api/agents').send({ ...found, name: 'Somebody Else', brokerage: null, phone: null }).expect(201);
    expect(first.body).toMatchObject({
      name: 'Sarah Johnson', state: 'FL', email: 'sarah.johnson@bayshore-realty.example', mlsId: 'FL30418', brokerage: 'Bayshore Realty Group', phone: '(813) 555-0142',
      hasPassword: false, verified: false, access: 'draft',
    });
    const row = await t.db('agents').where({ id: first.body.id }).first();
    expect(row).toMatchObject({ source: 'mls', mlsSystem: 'demo', mlsEmail: 'sarah.johnson@bayshore-realty.example', mlsName: 'Sarah Johnson', mlsPhone: '(813) 555-0142', mlsBrokerage: 'Bayshore Realty Group' });

    await search(browser);
    expect((await browser.post('/api/agents').send(found).expect(200)).body.id).toBe(first.body.id);

    // Another browser finding the same member works on the same identity, with its own draft access.
    const other = t.newSession();
    await search(other);
    expect((await other.post('/api/agents').send(found).expect(200)).body.id).toBe(first.body.id);
    await other.get(`/api/agents/${first.body.id}`).expect(200);
    expect(await t.db('agents').where({ mlsId: 'FL30418', source: 'mls' }).count({ n: '*' }).first()).toEqual({ n: '1' });
  });

  it('browsers finding the same member at the same moment still make one agent (the unique index)', async () => {
    const browsers = Array.from({ length: 6 }, () => t.newSession());
    const founds = await Promise.all(browsers.map((b) => search(b, 'David Kim', 'NY')));
    const answers = await Promise.all(browsers.map((b, i) => b.post('/api/agents').send(founds[i].body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it('an MLS ID typed on a manual agent is display data: it neither takes the member’s identity nor locks the member out', async () => {
    // A manual agent claims Emily Rodriguez's MLS ID and has an account.
    const squatter = t.newSession();
    const { body: fake } = await squatter.post('/api/agents').send({ ...manual, mlsId: 'TX52890' }).expect(201);
    expect(fake.mlsId).toBe('TX52890');
    await t.db('agents').where({ id: fake.id }).update({ passwordHash: '$argon2id$stub-for-test', email: 'squatter@example.com', verifiedAt: new Date() });
    await t.db.raw(`update sessions set data = data || jsonb_build_object('agentId', ?::int) where data->'wizardAgentIds' @> to_jsonb(?::int)`, [fake.id, fake.id]);

    // The real member is her own identity…
    const real = t.newSession();
    const { body: found } = await search(real, 'Emily Rodriguez', 'TX');
    const mine = await real.post('/api/agents').send(found).expect((r) => expect([200, 201]).toContain(r.status));
    expect(mine.body).toMatchObject({ name: 'Emily Rodriguez', mlsId: 'TX52890', verified: false });
    expect(mine.body.id).not.toBe(fake.id);
    // …and the squatter, even signed in as the manual agent, gets only the wizard's access to hers.
    await search(squatter, 'Emily Rodriguez', 'TX');
    const theirs = await squatter.post('/api/agents').send(found).expect(200);
    expect(theirs.body).toMatchObject({ id: mine.body.id, access: 'draft' });
  });

  it('an identity with an account is never refused to a wizard browser and never handed over: draft access, and sign-in is offered', async () => {
    const owner = t.newSession();
    const { body: found } = await search(owner, 'Emily Rodriguez', 'TX');
    const { body: agent } = await owner.post('/api/agents').send(found);
    await t.db('agents').where({ id: agent.id }).update({ passwordHash: '$argon2id$stub-for-test', verifiedAt: new Date() });

    const stranger = t.newSession();
    await search(stranger, 'Emily Rodriguez', 'TX');
    const res = await stranger.post('/api/agents').send(found).expect(200);
    expect(res.body).toMatchObject({ id: agent.id, hasPassword: true, verified: true, access: 'draft' });
    for (const path of ['leads', 'notification-settings', 'campaigns', 'facebook-metrics', 'deliveries']) {
      expect((await stranger.get(`/api/agents/${agent.id}/${path}`).expect(403)).body.code).toBe('agents.login_required');
    }
    // Sign-in is a link to the identity's own address, masked to this browser.
    const link = await stranger.post(`/api/agents/${agent.id}/sign-in-link`).expect(202);
    expect(link.body).toEqual({ status: 'verification_sent', email: 'e…@hillcountryhomes.example', expiresInMinutes: 30 });
  });

  it('answers the agent to a session signed in as that agent, with its own profile', async () => {
    const owner = t.newSession();
    const { body: found } = await search(owner, 'Michael Chen', 'CA');
    const { body: agent } = await owner.post('/api/agents').send(found);
    await t.db('agents').where({ id: agent.id }).update({ passwordHash: '$argon2id$stub-for-test', verifiedAt: new Date() });
    // Stand-in for a login: the session store row of this browser now names the agent.
    await t.db.raw(`update sessions set data = data || jsonb_build_object('agentId', ?::int) where data->'wizardAgentIds' @> to_jsonb(?::int)`, [agent.id, agent.id]);
    await search(owner, 'Michael Chen', 'CA');
    const res = await owner.post('/api/agents').send(found).expect(200);
    expect(res.body).toMatchObject({ id: agent.id, hasPassword: true, access: 'signed_in', pendingEmail: null });
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

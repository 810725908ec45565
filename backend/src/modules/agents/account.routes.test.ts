import crypto from 'node:crypto';
import { createTestContext, type TestContext } from '../../../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

type Session = ReturnType<TestContext['newSession']>;
type Res = { headers: Record<string, unknown> };

const manual = { name: 'Dana Whitfield', state: 'FL', manualEntry: true, brokerage: null, phone: null, email: null };
const PASSWORD = 'sunny-porch-42';

/** The session id a response set (la.sid), if it set one. */
function sidSetBy(res: Res): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const c = cookies.find((x) => x.startsWith('la.sid='));
  return c ? c.slice('la.sid='.length).split(';')[0] : undefined;
}

/** A cookie header for a stored session id, signed the way koa signs it (keygrip, sha1, base64url). */
function cookieFor(sid: string): string {
  const sig = crypto
    .createHmac('sha1', t.config.SESSION_SECRET!)
    .update(`la.sid=${sid}`)
    .digest('base64')
    .replace(/\/|\+|=/g, (x) => ({ '/': '_', '+': '-', '=': '' })[x]!);
  return `la.sid=${sid}; la.sid.sig=${sig}`;
}

/** A copy of a stored session under a new id: the same browser state seen from a second tab/profile. */
async function copyOfSession(sid: string): Promise<string> {
  const row = await t.db('sessions').where({ sid }).first();
  const copy = crypto.randomUUID();
  await t.db('sessions').insert({ sid: copy, data: JSON.stringify(row.data), expiresAt: row.expiresAt });
  return cookieFor(copy);
}

async function newAgent(session: Session = t.newSession()) {
  const res = await session.post('/api/agents').send(manual).expect(201);
  return { session, agent: res.body as { id: number; name: string }, sid: sidSetBy(res)! };
}

const setUp = (session: Session, id: number, email: string, password = PASSWORD) => session.put(`/api/agents/${id}`).send({ email, password });
const login = (session: Session, email: string, password: string) => session.post('/api/auth/login').send({ email, password });
let seq = 0;
const uniqueEmail = () => `agent${++seq}-${crypto.randomBytes(3).toString('hex')}@example.com`;

describe('PUT /api/agents/:id — branding and profile', () => {
  it('updates the fields present, clears those sent empty, and keeps the rest', async () => {
    const { session, agent } = await newAgent();
    const res = await session
      .put(`/api/agents/${agent.id}`)
      .send({ name: 'Dana W. Whitfield', email: 'dana@example.com', phone: '(813) 555-0100', brokerage: 'Palm Realty', profileImageUrl: '/objects/uploads/abc123', logoUrl: '' })
      .expect(200);
    expect(res.body).toMatchObject({
      id: agent.id,
      name: 'Dana W. Whitfield',
      email: 'dana@example.com',
      phone: '(813) 555-0100',
      brokerage: 'Palm Realty',
      profileImageUrl: '/objects/uploads/abc123',
      logoUrl: null,
      hasPassword: false,
    });
    const again = await session.put(`/api/agents/${agent.id}`).send({ phone: null }).expect(200);
    expect(again.body).toMatchObject({ name: 'Dana W. Whitfield', phone: null, brokerage: 'Palm Realty' });
  });

  it('validates with the contracts’ messages', async () => {
    const { session, agent } = await newAgent();
    const res = await session.put(`/api/agents/${agent.id}`).send({ name: ' ', email: 'nope', profileImageUrl: 'javascript:alert(1)' }).expect(400);
    expect(res.body.fields).toEqual({
      name: 'Name is required',
      email: 'Please enter a valid email address',
      profileImageUrl: 'Image must be an http(s) URL or an uploaded /objects/ path',
    });
  });

  it('is 403 for another session and 404 for an unknown agent', async () => {
    const { agent } = await newAgent();
    expect((await t.newSession().put(`/api/agents/${agent.id}`).send({ name: 'Mallory' }).expect(403)).body.code).toBe('agents.forbidden');
    await t.newSession().put('/api/agents/99999999').send({ name: 'Nobody' }).expect(404);
    expect((await t.db('agents').where({ id: agent.id }).first()).name).toBe('Dana Whitfield');
  });
});

describe('PUT /api/agents/:id — account setup', () => {
  it('stores an argon2id hash (never returned), logs this browser in under a new session id, and locks others out', async () => {
    const { session, agent, sid } = await newAgent();
    const staleTab = await copyOfSession(sid);
    const email = uniqueEmail();

    const res = await setUp(session, agent.id, email.toUpperCase()).expect(200);
    expect(res.body).toMatchObject({ id: agent.id, email, hasPassword: true });
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password_?hash|sunny-porch/i);
    const row = await t.db('agents').where({ id: agent.id }).first();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);

    // A new session id; the old one no longer exists.
    const newSid = sidSetBy(res);
    expect(newSid).toBeDefined();
    expect(newSid).not.toBe(sid);
    expect(await t.db('sessions').where({ sid }).first()).toBeUndefined();
    await t.request.get('/api/auth/me').set('Cookie', cookieFor(sid)).expect(401);

    // This browser is now logged in as the agent, and still reaches it.
    expect((await session.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: 'Dana Whitfield' });
    expect((await session.get(`/api/agents/${agent.id}`).expect(200)).body.hasPassword).toBe(true);

    // Owning the agent is no longer enough: a copy of the wizard session must log in.
    const blocked = await t.request.get(`/api/agents/${agent.id}`).set('Cookie', staleTab).expect(403);
    expect(blocked.body).toEqual({ message: 'Please log in to continue', code: 'agents.login_required' });
    await t.newSession().get(`/api/agents/${agent.id}`).expect(403);

    const audit = await t.db('auditLog').where({ action: 'agent.account_setup', actorId: String(agent.id) }).first();
    expect(audit).toMatchObject({ actorType: 'agent', targetType: 'agent' });
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it('needs an email with the password, and the spec’s password rule', async () => {
    const { session, agent } = await newAgent();
    const noEmail = await session.put(`/api/agents/${agent.id}`).send({ password: PASSWORD }).expect(400);
    expect(noEmail.body.fields).toEqual({ email: 'Please enter a valid email address' });
    const short = await setUp(session, agent.id, uniqueEmail(), '12345').expect(400);
    expect(short.body.fields).toEqual({ password: 'Password must be at least 6 characters' });
    expect((await t.db('agents').where({ id: agent.id }).first()).passwordHash).toBeNull();
  });

  it('refuses an email that is already another account’s login (409), in any letter case', async () => {
    const email = uniqueEmail();
    const first = await newAgent();
    await setUp(first.session, first.agent.id, email).expect(200);
    const second = await newAgent();
    const res = await setUp(second.session, second.agent.id, email.toUpperCase()).expect(409);
    expect(res.body.code).toBe('agents.email_taken');
    expect((await t.db('agents').where({ id: second.agent.id }).first()).passwordHash).toBeNull();
    // Nor can a logged-in account move its login onto another account's email.
    const third = await newAgent();
    await setUp(third.session, third.agent.id, uniqueEmail()).expect(200);
    expect((await third.session.put(`/api/agents/${third.agent.id}`).send({ email }).expect(409)).body.code).toBe('agents.email_taken');
  });

  it('sets the first password only: afterwards it is 409', async () => {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    await setUp(session, agent.id, email).expect(200);
    expect((await setUp(session, agent.id, email, 'another-password').expect(409)).body.code).toBe('agents.password_already_set');
  });

  describe('an agent found in the MLS', () => {
    const MLS_EMAIL = 'sarah.johnson@bayshore-realty.example';
    // Each test claims its own member of the demo MLS: a claimed member cannot be created again.
    async function mlsAgent(name = 'Sarah Johnson', state = 'FL', email = MLS_EMAIL) {
      const session = t.newSession();
      const { body: found } = await session.post('/api/mls/search-agent').send({ name, state }).expect(200);
      expect(found.email).toBe(email);
      const { body: agent } = await session.post('/api/agents').send(found).expect(201);
      return { session, agent };
    }

    it('must use the email on its MLS profile, even after editing its contact email', async () => {
      const { session, agent } = await mlsAgent();
      await session.put(`/api/agents/${agent.id}`).send({ email: 'stranger@example.com' }).expect(200);
      const res = await setUp(session, agent.id, 'stranger@example.com').expect(403);
      expect(res.body).toEqual({ message: 'Use the email address on your MLS profile to set up this account.', code: 'agents.mls_email_required' });
      expect((await t.db('agents').where({ id: agent.id }).first()).passwordHash).toBeNull();

      const ok = await setUp(session, agent.id, MLS_EMAIL.toUpperCase()).expect(200);
      expect(ok.body).toMatchObject({ email: MLS_EMAIL, hasPassword: true });
      // From now on the member is an account: another browser finding it is asked to log in.
      const other = t.newSession();
      const { body: found } = await other.post('/api/mls/search-agent').send({ name: 'Sarah Johnson', state: 'FL' }).expect(200);
      expect((await other.post('/api/agents').send(found).expect(409)).body.code).toBe('agents.login_required');
    });

    it('keeps its MLS ID (403 to change it); a manual agent may set one', async () => {
      const { session, agent } = await mlsAgent('David Kim', 'NY', 'david.kim@hudsonkey.example');
      const res = await session.put(`/api/agents/${agent.id}`).send({ mlsId: 'FL30418' }).expect(403);
      expect(res.body.code).toBe('agents.mls_id_locked');
      await session.put(`/api/agents/${agent.id}`).send({ mlsId: agent.mlsId, brokerage: 'Hudson Key' }).expect(200);
      expect((await t.db('agents').where({ id: agent.id }).first()).mlsId).toBe('NY11473');

      const m = await newAgent();
      expect((await m.session.put(`/api/agents/${m.agent.id}`).send({ mlsId: 'MY-123' }).expect(200)).body.mlsId).toBe('MY-123');
    });
  });
});

describe('POST /api/auth/login and /api/auth/logout', () => {
  async function account() {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    await setUp(session, agent.id, email).expect(200);
    return { agent, email };
  }

  it('logs in with the password under a new session id, and logs out', async () => {
    const { agent, email } = await account();
    const browser = t.newSession();
    const before = sidSetBy(await browser.post('/api/agents').send(manual).expect(201));
    const res = await login(browser, email.toUpperCase(), PASSWORD).expect(200);
    expect(res.body).toEqual({ id: agent.id, name: 'Dana Whitfield' });
    const after = sidSetBy(res);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect((await browser.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: 'Dana Whitfield' });
    expect((await browser.get(`/api/agents/${agent.id}`).expect(200)).body).not.toHaveProperty('passwordHash');

    expect((await t.db('auditLog').where({ action: 'agent.login', actorId: String(agent.id) })).length).toBe(1);

    expect((await browser.post('/api/auth/logout').expect(200)).body).toEqual({ ok: true });
    await browser.get('/api/auth/me').expect(401);
    await browser.get(`/api/agents/${agent.id}`).expect(403);
    expect(await t.db('sessions').where({ sid: after! }).first()).toBeUndefined();
  });

  it('answers a wrong password and an unknown email alike: 401 “Invalid email or password”', async () => {
    const { email } = await account();
    const wrong = await login(t.newSession(), email, 'not-the-password').expect(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password', code: 'auth.invalid_credentials' });
    const unknown = await login(t.newSession(), uniqueEmail(), PASSWORD).expect(401);
    expect(unknown.body).toEqual(wrong.body);
    const failures = await t.db('auditLog').where({ action: 'agent.login_failed' });
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(failures)).not.toMatch(/not-the-password|sunny-porch|@example\.com/);
  });

  it('validates the body with the spec’s messages', async () => {
    const res = await login(t.newSession(), 'nope', '123').expect(400);
    expect(res.body.fields).toEqual({ email: 'Please enter a valid email address', password: 'Password must be at least 6 characters' });
  });

  it('is rate limited per IP and email: the 11th try is 429, even with the right password', async () => {
    const { email } = await account();
    for (let i = 0; i < 10; i++) await login(t.newSession(), email, `wrong-${i}-password`).expect(401);
    const res = await login(t.newSession(), email, PASSWORD).expect(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another email from the same IP is not affected.
    const other = await account();
    await login(t.newSession(), other.email, PASSWORD).expect(200);
  });
});

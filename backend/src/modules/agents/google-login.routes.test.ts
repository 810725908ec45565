import argon2 from 'argon2';
import nock from 'nock';
import { GOOGLE_LOGIN_DISABLED_MESSAGE } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';

/** Continue with Google against Google's documented token and userinfo answers (nock). */
const PUBLIC_URL = 'https://ads.example.com';
const CLIENT_ID = 'client-123.apps.googleusercontent.com';
const CLIENT_SECRET = 'google-client-secret-for-tests';

jest.setTimeout(60_000);

let t: TestContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET, PUBLIC_URL } });
});
afterEach(async () => {
  await t.db('rate_limits').delete();
  nock.cleanAll();
});
afterAll(async () => {
  await t.close();
  nock.enableNetConnect();
  // nock patches node's shared net/http modules: unpatch them for the next test file in this worker.
  nock.restore();
});

type Session = ReturnType<TestContext['newSession']>;

let seq = 0;
/** An agent with an account (a password: its email was verified when it became a login). */
async function account(opts: { email?: string | null; googleId?: string; password?: boolean } = {}) {
  seq += 1;
  const [row] = await t
    .db('agents')
    .insert({
      name: `Dana Whitfield ${seq}`,
      state: 'FL',
      email: opts.email === undefined ? `dana${seq}@example.com` : opts.email,
      googleId: opts.googleId ?? null,
      passwordHash: opts.password === false ? null : await argon2.hash('sunny-porch-42', { type: argon2.argon2id }),
      verifiedAt: opts.password === false ? null : new Date(),
    })
    .returning(['id', 'name', 'email']);
  return row as { id: number; name: string; email: string | null };
}

/** GET /api/auth/google in this session: the redirect to Google, and the `state` it carries. */
async function start(session: Session): Promise<{ location: URL; state: string }> {
  const res = await session.get('/api/auth/google').expect(302);
  const location = new URL(res.headers.location);
  return { location, state: location.searchParams.get('state')! };
}

/** Google's answers for one sign-in: the code exchange (POST /token) and the OpenID userinfo. */
function google(userinfo: Record<string, unknown>, code = 'auth-code-1') {
  const token = nock('https://oauth2.googleapis.com')
    .post('/token', (body) => body.code === code && body.client_id === CLIENT_ID && body.client_secret === CLIENT_SECRET
      && body.grant_type === 'authorization_code' && body.redirect_uri === `${PUBLIC_URL}/api/auth/google/callback`)
    .reply(200, { access_token: 'ya29.access-token', expires_in: 3599, scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile', token_type: 'Bearer', id_token: 'eyJ.header.sig' });
  const info = nock('https://www.googleapis.com', { reqheaders: { authorization: 'Bearer ya29.access-token' } })
    .get('/oauth2/v3/userinfo')
    .reply(200, { sub: '1122334455', name: 'Dana Whitfield', given_name: 'Dana', family_name: 'Whitfield', picture: 'https://lh3.googleusercontent.com/a/x', email_verified: true, ...userinfo });
  return { token, info };
}

function sidOf(res: { headers: Record<string, unknown> }): string | undefined {
  const c = ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((x) => x.startsWith('la.sid='));
  return c?.slice('la.sid='.length).split(';')[0];
}

describe('GET /api/auth/google', () => {
  it("redirects to Google's consent screen with our client id, the public callback URL, the scopes and a state", async () => {
    const { location, state } = await start(t.newSession());
    expect(location.origin + location.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(location.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(location.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/google/callback`);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(state.length).toBeGreaterThanOrEqual(16);
  });

  it('gives each browser its own state', async () => {
    const a = await start(t.newSession());
    const b = await start(t.newSession());
    expect(a.state).not.toBe(b.state);
  });
});

describe('GET /api/auth/google/callback', () => {
  it("logs in the account with Google's verified email under a new session id, links the googleId and audits it", async () => {
    const agent = await account({ email: 'dana.google@example.com' });
    const session = t.newSession();
    const started = await session.get('/api/auth/google').expect(302);
    const state = new URL(started.headers.location).searchParams.get('state')!;
    const calls = google({ sub: 'g-sub-1', email: 'Dana.Google@example.com' });

    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state, scope: 'openid email profile' }).expect(302);
    expect(res.headers.location).toBe('/dashboard');
    expect(calls.token.isDone() && calls.info.isDone()).toBe(true);
    expect(sidOf(res)).toBeDefined();
    expect(sidOf(res)).not.toBe(sidOf(started));

    expect((await session.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: agent.name });
    expect((await t.db('agents').where({ id: agent.id }).first()).googleId).toBe('g-sub-1');
    const audit = await t.db('auditLog').where({ action: 'agent.login', actorId: String(agent.id) }).first();
    expect(audit.details).toEqual({ method: 'google' });
    // Neither the code nor Google's tokens are kept anywhere we write.
    expect(JSON.stringify(await t.db('auditLog'))).not.toMatch(/ya29|auth-code-1/);
  });

  it('logs in the agent already linked to this Google account, whatever its email now', async () => {
    const agent = await account({ email: 'old-address@example.com', googleId: 'g-linked-7' });
    const session = t.newSession();
    const { state } = await start(session);
    google({ sub: 'g-linked-7', email: 'new-address@gmail.com' });
    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302);
    expect(res.headers.location).toBe('/dashboard');
    expect((await session.get('/api/auth/me').expect(200)).body.id).toBe(agent.id);
  });

  it('refuses a state that is not the one this session was given, before calling Google', async () => {
    const agent = await account({ email: 'state-check@example.com' });
    const session = t.newSession();
    await start(session);
    const calls = google({ sub: 'g-sub-2', email: agent.email });
    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state: 'not-the-state-we-issued' }).expect(302);
    expect(res.headers.location).toBe('/login?google=failed');
    expect(calls.token.isDone()).toBe(false);
    await session.get('/api/auth/me').expect(401);
    expect(await t.db('auditLog').where({ action: 'agent.google_login_failed' }).orderBy('id', 'desc').first()).toMatchObject({ actorType: 'visitor' });
  });

  it("refuses another browser's state (no state in this session) and a replayed state", async () => {
    await account({ email: 'replay@example.com' });
    const first = t.newSession();
    const { state } = await start(first);
    // The same state in a browser that never started: nothing stored to compare with.
    const other = t.newSession();
    expect((await other.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302)).headers.location).toBe('/login?google=failed');
    // A state is good once.
    google({ sub: 'g-sub-3', email: 'replay@example.com' });
    expect((await first.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302)).headers.location).toBe('/dashboard');
    const again = await first.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302);
    expect(again.headers.location).toBe('/login?google=failed');
  });

  it('does not log in with an email Google has not verified', async () => {
    const agent = await account({ email: 'unverified@example.com' });
    const session = t.newSession();
    const { state } = await start(session);
    google({ sub: 'g-sub-4', email: 'unverified@example.com', email_verified: false });
    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302);
    expect(res.headers.location).toBe('/login?google=unverified-email');
    await session.get('/api/auth/me').expect(401);
    expect((await t.db('agents').where({ id: agent.id }).first()).googleId).toBeNull();
  });

  it('sends an unknown email back to /login?google=no-account', async () => {
    const session = t.newSession();
    const { state } = await start(session);
    google({ sub: 'g-sub-5', email: 'nobody-here@example.com' });
    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302);
    expect(res.headers.location).toBe('/login?google=no-account');
    await session.get('/api/auth/me').expect(401);
  });

  it('never hands over an agent without an account (no password) that merely carries the email', async () => {
    const wizardAgent = await account({ email: 'typed-in-wizard@example.com', password: false });
    const session = t.newSession();
    const { state } = await start(session);
    google({ sub: 'g-sub-6', email: 'typed-in-wizard@example.com' });
    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302);
    expect(res.headers.location).toBe('/login?google=no-account');
    expect((await t.db('agents').where({ id: wizardAgent.id }).first()).googleId).toBeNull();
  });

  it("signs in, and verifies, an MLS identity nobody verified whose MLS-published email Google verified", async () => {
    const [member] = await t
      .db('agents')
      .insert({ name: 'Michael Chen', state: 'CA', source: 'mls', mlsSystem: 'demo', mlsId: 'CA-GOOGLE-1', mlsEmail: 'michael@goldencoast.example', email: 'typed@stranger.example' })
      .returning('id');
    const session = t.newSession();
    const { state } = await start(session);
    google({ sub: 'g-sub-mls', email: 'michael@goldencoast.example' });
    const res = await session.get('/api/auth/google/callback').query({ code: 'auth-code-1', state }).expect(302);
    expect(res.headers.location).toBe('/dashboard');
    expect((await session.get('/api/auth/me').expect(200)).body.id).toBe(member.id);
    const row = await t.db('agents').where({ id: member.id }).first();
    expect(row).toMatchObject({ googleId: 'g-sub-mls', email: 'michael@goldencoast.example' });
    expect(row.verifiedAt).not.toBeNull();
  });

  it("goes back to /login?google=failed when Google refuses the code or the user said no", async () => {
    const session = t.newSession();
    let { state } = await start(session);
    nock('https://oauth2.googleapis.com').post('/token').reply(400, { error: 'invalid_grant', error_description: 'Bad Request' });
    expect((await session.get('/api/auth/google/callback').query({ code: 'used-code', state }).expect(302)).headers.location).toBe('/login?google=failed');
    ({ state } = await start(session));
    expect((await session.get('/api/auth/google/callback').query({ error: 'access_denied', state }).expect(302)).headers.location).toBe('/login?google=failed');
    await session.get('/api/auth/me').expect(401);
  });
});

describe('without GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET', () => {
  let off: TestContext;
  beforeAll(async () => {
    off = await createTestContext();
  });
  afterAll(() => off.close());

  it('answers both routes with a clear 503 JSON error, and the runtime config says the button is off', async () => {
    for (const path of ['/api/auth/google', '/api/auth/google/callback?code=x&state=y']) {
      const res = await off.request.get(path).expect(503);
      expect(res.body).toEqual({ message: GOOGLE_LOGIN_DISABLED_MESSAGE, code: 'agents.google_login_disabled' });
    }
    expect((await off.request.get('/api/runtime-config').expect(200)).body.googleLoginEnabled).toBe(false);
    expect((await t.request.get('/api/runtime-config').expect(200)).body.googleLoginEnabled).toBe(true);
  });
});

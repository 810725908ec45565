import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { emailsTo, waitForEmail } from '../../../test/outbox';
import { sendVerificationEmailJob } from './jobs/send-verification-email.job';

// Each argon2id hash costs 64 MiB and three passes; these journeys make a dozen on a shared machine.
jest.setTimeout(120_000);

let t: TestContext;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-account-'));
  // The verification emails are sent by their job, into DATA_DIR/outbox.
  t = await createTestContext({ work: true, jobs: [sendVerificationEmailJob], env: { DATA_DIR: dataDir } });
});
// Every request here comes from one address: each test starts with fresh rate-limit budgets.
afterEach(() => t.db('rate_limits').delete());
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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

/** The account setup request: 202, the link goes to the email. */
const requestSetUp = (session: Session, id: number, email: string, password = PASSWORD) => session.put(`/api/agents/${id}`).send({ email, password });
/**
 * The link's token from email number `count` to `email`, waiting for the job that sends it. The count is
 * the caller's: counting the emails after the request would race the job, which may already have sent it.
 */
async function linkSentTo(email: string, count: number): Promise<string> {
  return (await waitForEmail(dataDir, email, count)).token!;
}
const openLink = (session: Session, token: string, password?: string) => session.post('/api/auth/verify-email').send({ token, ...(password ? { password } : {}) });
/** Account setup as the agent does it: the request, then the link opened in the same browser. */
async function setUp(session: Session, id: number, email: string, password = PASSWORD) {
  const before = (await emailsTo(dataDir, email)).length;
  await requestSetUp(session, id, email, password).expect(202);
  return openLink(session, await linkSentTo(email, before + 1));
}
const login = (session: Session, email: string, password: string) => session.post('/api/auth/login').send({ email, password });
let seq = 0;
const uniqueEmail = () => `agent${++seq}-${crypto.randomBytes(3).toString('hex')}@example.com`;

describe('PUT /api/agents/:id — branding and profile', () => {
  it("from a wizard browser: its own draft, answered merged (fields present set, those sent empty cleared, the rest kept); the agent is untouched", async () => {
    const { session, agent } = await newAgent();
    const res = await session
      .put(`/api/agents/${agent.id}`)
      .send({ name: 'Dana W. Whitfield', email: 'dana@example.com', phone: '(813) 555-0100', brokerage: 'Palm Realty', profileImageUrl: '/objects/uploads/00000000-0000-4000-8000-616263313233', logoUrl: '' })
      .expect(200);
    expect(res.body).toMatchObject({
      id: agent.id,
      name: 'Dana W. Whitfield',
      email: 'dana@example.com',
      phone: '(813) 555-0100',
      brokerage: 'Palm Realty',
      profileImageUrl: '/objects/uploads/00000000-0000-4000-8000-616263313233',
      logoUrl: null,
      hasPassword: false,
    });
    const again = await session.put(`/api/agents/${agent.id}`).send({ phone: null }).expect(200);
    expect(again.body).toMatchObject({ name: 'Dana W. Whitfield', phone: null, brokerage: 'Palm Realty', access: 'draft' });
    expect(await t.db('agents').where({ id: agent.id }).first()).toMatchObject({ name: 'Dana Whitfield', email: null, phone: null, brokerage: null, profileImageUrl: null });
    expect((await t.db('agentDrafts').where({ agentId: agent.id }).first()).fields).toEqual({
      name: 'Dana W. Whitfield', email: 'dana@example.com', phone: null, brokerage: 'Palm Realty', profileImageUrl: '/objects/uploads/abc123', logoUrl: null,
    });
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

  it('is 404 for another session, as for an unknown agent', async () => {
    const { agent } = await newAgent();
    expect((await t.newSession().put(`/api/agents/${agent.id}`).send({ name: 'Mallory' }).expect(404)).body.code).toBe('agents.not_found');
    await t.newSession().put('/api/agents/99999999').send({ name: 'Nobody' }).expect(404);
    expect((await t.db('agents').where({ id: agent.id }).first()).name).toBe('Dana Whitfield');
  });
});

describe('PUT /api/agents/:id — account setup', () => {
  it('sets no password until the emailed link is opened; the wizard session keeps its access meanwhile', async () => {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    const res = await requestSetUp(session, agent.id, email.toUpperCase()).expect(202);
    expect(res.body).toEqual({ status: 'verification_sent', email, expiresInMinutes: 30 });
    const row = await t.db('agents').where({ id: agent.id }).first();
    expect(row.passwordHash).toBeNull();
    expect(row.email).toBeNull();
    // Nobody can log in yet, and the wizard session still reaches its agent (DESIGN §3).
    await login(t.newSession(), email, PASSWORD).expect(401);
    expect((await session.get(`/api/agents/${agent.id}`).expect(200)).body.hasPassword).toBe(false);

    // The email: an HTML and a text part, a link whose token is stored only as its SHA-256, valid 30 minutes.
    const mail = await waitForEmail(dataDir, email);
    expect(mail.subject).toBe('Confirm your email to finish your account setup');
    expect(mail.hasHtml && mail.hasText).toBe(true);
    expect(mail.body).toContain('The link works once, for 30 minutes.');
    const stored = await t.db('agentEmailVerifications').where({ agentId: agent.id }).first();
    expect(stored.tokenHash).toBe(crypto.createHash('sha256').update(mail.token!).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(mail.token);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(new Date(stored.expiresAt).getTime() - new Date(stored.createdAt).getTime()).toBe(30 * 60 * 1000);
    expect(new Date(stored.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 60 * 1000);
  });

  it('opening the link sets the password (argon2id, never returned), logs this browser in under a new session id, and ends every other session’s access', async () => {
    const { session, agent, sid } = await newAgent();
    const staleTab = await copyOfSession(sid);
    const email = uniqueEmail();
    await requestSetUp(session, agent.id, email).expect(202);
    // The wizard session after the request (it now carries this browser's verification nonce).
    const requestSid = (await t.db('sessions').whereRaw(`data->'wizardAgentIds' @> to_jsonb(?::int)`, [agent.id]).whereRaw(`data->>'browserKey' is not null`).first()).sid;
    const res = await openLink(session, await linkSentTo(email, 1)).expect(200);
    expect(res.body).toEqual({ id: agent.id, name: 'Dana Whitfield', purpose: 'account_setup', loggedIn: true });
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password_?hash|sunny-porch/i);
    const row = await t.db('agents').where({ id: agent.id }).first();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.email).toBe(email);

    // A new session id; the old one no longer exists.
    const newSid = sidSetBy(res);
    expect(newSid).toBeDefined();
    expect(newSid).not.toBe(requestSid);
    expect(await t.db('sessions').where({ sid: requestSid }).first()).toBeUndefined();

    // This browser is now logged in as the agent, and still reaches it; the password works.
    expect((await session.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: 'Dana Whitfield' });
    expect((await session.get(`/api/agents/${agent.id}`).expect(200)).body.hasPassword).toBe(true);
    await login(t.newSession(), email, PASSWORD).expect(200);

    // Every other session lost the agent: the stored copy of the wizard session no longer owns it.
    await t.request.get(`/api/agents/${agent.id}`).set('Cookie', staleTab).expect(404);
    await t.newSession().get(`/api/agents/${agent.id}`).expect(404);

    const audit = await t.db('auditLog').where({ action: 'agent.account_setup', actorId: String(agent.id) }).first();
    expect(audit).toMatchObject({ actorType: 'agent', targetType: 'agent' });
    expect(JSON.stringify(await t.db('auditLog'))).not.toContain(PASSWORD);
  });

  it('a link works once and for 30 minutes only', async () => {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    await requestSetUp(session, agent.id, email).expect(202);
    const token = await linkSentTo(email, 1);
    await openLink(session, token).expect(200);
    const again = await openLink(t.newSession(), token, 'another-fine-password').expect(400);
    expect(again.body.code).toBe('agents.verification_invalid');

    const other = await newAgent();
    const email2 = uniqueEmail();
    await requestSetUp(other.session, other.agent.id, email2).expect(202);
    const late = await linkSentTo(email2, 1);
    await t.db('agentEmailVerifications').where({ agentId: other.agent.id }).update({ expiresAt: new Date(Date.now() - 1000) });
    expect((await openLink(other.session, late).expect(400)).body).toEqual({
      message: 'This link is invalid, has expired or has already been used. Please ask for a new one.',
      code: 'agents.verification_invalid',
      fields: { token: 'This link is invalid, has expired or has already been used. Please ask for a new one.' },
    });
    expect((await t.db('agents').where({ id: other.agent.id }).first()).passwordHash).toBeNull();
    await openLink(t.newSession(), 'x'.repeat(43)).expect(400);
  });

  it('opened in another browser, the link signs its opener in with no password: the requester’s password is never set there', async () => {
    // A stranger sets up an account with an address they do not own…
    const stranger = await newAgent();
    const email = uniqueEmail();
    await requestSetUp(stranger.session, stranger.agent.id, email, 'strangers-secret-77').expect(202);
    const token = await linkSentTo(email, 1);
    // …the real owner opens the link in her own browser: she is signed in, and no password is set.
    const owner = t.newSession();
    expect((await openLink(owner, token).expect(200)).body).toMatchObject({ purpose: 'account_setup', loggedIn: true });
    expect((await owner.get('/api/auth/me').expect(200)).body.id).toBe(stranger.agent.id);
    expect((await t.db('agents').where({ id: stranger.agent.id }).first()).passwordHash).toBeNull();
    await login(t.newSession(), email, 'strangers-secret-77').expect(401);
    // The stranger's wizard session lost the agent.
    await stranger.session.get(`/api/agents/${stranger.agent.id}`).expect(404);
    // Signed in by the link, she sets a first password without a current one.
    await owner.post('/api/auth/change-password').send({ newPassword: 'owners-own-password-9' }).expect(200);
    await login(t.newSession(), email, 'owners-own-password-9').expect(200);
    // From then on the current password is needed.
    expect((await owner.post('/api/auth/change-password').send({ newPassword: 'another-one-entirely' }).expect(400)).body.code).toBe('agents.current_password_wrong');
  });

  it('the opener may choose the password with the link', async () => {
    const requester = await newAgent();
    const email = uniqueEmail();
    await requestSetUp(requester.session, requester.agent.id, email, 'requesters-secret-1').expect(202);
    await openLink(t.newSession(), await linkSentTo(email, 1), 'openers-own-choice-2').expect(200);
    await login(t.newSession(), email, 'requesters-secret-1').expect(401);
    await login(t.newSession(), email, 'openers-own-choice-2').expect(200);
  });

  it('needs an email with the password, and the spec’s password rule', async () => {
    const { session, agent } = await newAgent();
    const noEmail = await session.put(`/api/agents/${agent.id}`).send({ password: PASSWORD }).expect(400);
    expect(noEmail.body.fields).toEqual({ email: 'Please enter a valid email address' });
    const short = await requestSetUp(session, agent.id, uniqueEmail(), '12345').expect(400);
    expect(short.body.fields).toEqual({ password: 'Password must be at least 6 characters' });
    // The most common passwords are refused (zxcvbn-ts's list), in any letter case.
    for (const common of ['123456', 'password', 'Qwerty123', 'iloveyou']) {
      const res = await requestSetUp(session, agent.id, uniqueEmail(), common).expect(400);
      expect(res.body).toMatchObject({ code: 'agents.common_password', fields: { password: 'This password is too common. Please choose one that is harder to guess.' } });
    }
    expect((await t.db('agents').where({ id: agent.id }).first()).passwordHash).toBeNull();
  });

  it('a manual agent verified with the email of another verified manual agent merges into that one (one person, one agent)', async () => {
    const email = uniqueEmail();
    const first = await newAgent();
    expect((await setUp(first.session, first.agent.id, email)).status).toBe(200);
    // Another device, the same person: a new manual agent with a listing and a campaign draft.
    const second = await newAgent();
    const { body: listing } = await second.session
      .post('/api/listings')
      .send({ agentId: second.agent.id, address: '9 Bay St', city: 'Tampa', state: 'FL', price: '350000', bedrooms: 2, bathrooms: '1.0', squareFeet: 900, status: 'active', imageUrl: null, images: [] })
      .expect(201);
    // The request answers as for any address: it cannot be used to probe which emails have accounts.
    const asked = await second.session.post(`/api/agents/${second.agent.id}/account-setup`).send({ email: email.toUpperCase() }).expect(202);
    expect(asked.body).toEqual({ status: 'verification_sent', email, expiresInMinutes: 30 });
    const res = await openLink(second.session, await linkSentTo(email, 2)).expect(200);
    // Signed in as the agent that had the email; the second agent is gone, its listing moved, and the merge recorded.
    expect(res.body).toMatchObject({ id: first.agent.id, loggedIn: true });
    expect((await second.session.get('/api/auth/me').expect(200)).body.id).toBe(first.agent.id);
    expect(await t.db('agents').where({ id: second.agent.id }).first()).toBeUndefined();
    expect(await t.db('listings').where({ id: listing.id }).first()).toMatchObject({ agentId: first.agent.id });
    expect(await t.db('agentMerges').where({ mergedId: second.agent.id }).first()).toMatchObject({ survivorId: first.agent.id, reason: 'verified_email', moved: expect.objectContaining({ listings: 1 }) });
    // The first agent's password still works.
    await login(t.newSession(), email, PASSWORD).expect(200);

    // A signed-in agent cannot move its email onto another agent's (409 when the link is opened).
    const third = await newAgent();
    const thirdEmail = uniqueEmail();
    expect((await setUp(third.session, third.agent.id, thirdEmail)).status).toBe(200);
    const change = await third.session.put(`/api/agents/${third.agent.id}`).send({ email }).expect(200);
    expect(change.body).toMatchObject({ email: thirdEmail, pendingEmail: email });
    expect((await openLink(third.session, await linkSentTo(email, 3)).expect(409)).body.code).toBe('agents.email_taken');
    expect((await t.db('agents').where({ id: third.agent.id }).first()).email).toBe(thirdEmail);
  });

  it('changes the login email only when the new address is confirmed, and ends the other sessions', async () => {
    const { session, agent } = await newAgent();
    const oldEmail = uniqueEmail();
    expect((await setUp(session, agent.id, oldEmail)).status).toBe(200);
    const elsewhere = t.newSession();
    await login(elsewhere, oldEmail, PASSWORD).expect(200);
    const newEmail = uniqueEmail();
    await session.put(`/api/agents/${agent.id}`).send({ email: newEmail, phone: '(813) 555-0101' }).expect(200);
    // The other fields changed at once; the login did not.
    expect(await t.db('agents').where({ id: agent.id }).first()).toMatchObject({ email: oldEmail, phone: '(813) 555-0101' });
    const mail = await waitForEmail(dataDir, newEmail);
    expect(mail.subject).toBe('Confirm your new login email');
    const res = await openLink(session, mail.token!).expect(200);
    expect(res.body).toMatchObject({ purpose: 'email_change', loggedIn: true });
    expect((await t.db('agents').where({ id: agent.id }).first()).email).toBe(newEmail);
    await elsewhere.get('/api/auth/me').expect(401);
    await session.get('/api/auth/me').expect(200);
    await login(t.newSession(), newEmail, PASSWORD).expect(200);
  });

  it('parallel setups with one email: every request 202, every verification 200 or 409, never 500', async () => {
    const email = uniqueEmail();
    // As many as the per-address limit of verification emails allows (5 an hour).
    const agents = await Promise.all(Array.from({ length: 5 }, () => newAgent()));
    const asked = await Promise.all(agents.map((a) => requestSetUp(a.session, a.agent.id, email)));
    expect(asked.map((r) => r.status)).toEqual(agents.map(() => 202));
    const mails = await (async () => {
      await waitForEmail(dataDir, email, 5);
      return emailsTo(dataDir, email);
    })();
    // Each agent's browser opens its own link (the token's row names the agent).
    const byAgent = new Map<number, string>();
    for (const m of mails) {
      const row = await t.db('agentEmailVerifications').where({ tokenHash: crypto.createHash('sha256').update(m.token!).digest('hex') }).first();
      byAgent.set(row.agentId, m.token!);
    }
    const results = await Promise.all(agents.map((a) => openLink(a.session, byAgent.get(a.agent.id)!)));
    const statuses = results.map((r) => r.status);
    // One verifies; those that raced it hear 409 and may open their link again (it was not used)…
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('agents.email_taken');
    // …and then merge into the one that won: one agent for the address.
    const retried = await Promise.all(agents.map((a, i) => (statuses[i] === 409 ? openLink(a.session, byAgent.get(a.agent.id)!) : null)));
    expect(retried.filter((r) => r && r.status !== 200)).toEqual([]);
    expect(await t.db('agents').whereRaw('lower(email) = ?', [email]).count({ n: '*' }).first()).toEqual({ n: '1' });
    // A sixth request for the same address within the hour is refused by the per-address limit.
    const sixth = await newAgent();
    expect((await requestSetUp(sixth.session, sixth.agent.id, email).expect(429)).body.code).toBe('rate_limited');
  });

  it('for an identity that has an owner already, sends a sign-in link to its own address instead (masked), and sets no password', async () => {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    expect((await setUp(session, agent.id, email)).status).toBe(200);
    const wizard = t.newSession();
    await t.db('sessions').insert({ sid: 'wizard-of-verified', data: JSON.stringify({ wizardAgentIds: [agent.id], browserKey: 'k'.repeat(32) }), expiresAt: new Date(Date.now() + 60_000) });
    const res = await t.request.put(`/api/agents/${agent.id}`).set('Cookie', cookieFor('wizard-of-verified')).send({ email: 'anything@example.com', password: 'another-password' }).expect(202);
    expect(res.body).toEqual({ status: 'verification_sent', email: `${email[0]}…@example.com`, expiresInMinutes: 30 });
    const mail = await waitForEmail(dataDir, email, 2);
    expect(mail.subject).toBe('Your sign-in link for Listing Ads');
    await login(wizard, email, 'another-password').expect(401);
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

    it('must use the email on its MLS profile, even after drafting another contact email', async () => {
      const { session, agent } = await mlsAgent();
      await session.put(`/api/agents/${agent.id}`).send({ email: 'stranger@example.com' }).expect(200);
      const res = await requestSetUp(session, agent.id, 'stranger@example.com').expect(403);
      expect(res.body).toEqual({ message: 'Use the email address on your MLS profile to set up this account.', code: 'agents.mls_email_required' });
      expect((await t.db('agents').where({ id: agent.id }).first()).passwordHash).toBeNull();

      // Opened in this browser: the drafted contact email becomes an email change with its own link, never the login as is.
      expect((await setUp(session, agent.id, MLS_EMAIL.toUpperCase())).status).toBe(200);
      expect((await session.get(`/api/agents/${agent.id}`).expect(200)).body).toMatchObject({ email: MLS_EMAIL, hasPassword: true, verified: true, pendingEmail: 'stranger@example.com' });
      // Another browser finding the member works on its drafts, and is offered sign-in: never the account.
      const other = t.newSession();
      const { body: found } = await other.post('/api/mls/search-agent').send({ name: 'Sarah Johnson', state: 'FL' }).expect(200);
      expect((await other.post('/api/agents').send(found).expect(200)).body).toMatchObject({ id: agent.id, access: 'draft', verified: true });
    });

    it('keeps its MLS ID (403 to change it); a manual agent may set one', async () => {
      const { session, agent } = await mlsAgent('David Kim', 'NY', 'david.kim@hudsonkey.example');
      const res = await session.put(`/api/agents/${agent.id}`).send({ mlsId: 'FL30418' }).expect(403);
      expect(res.body.code).toBe('agents.mls_id_locked');
      await session.put(`/api/agents/${agent.id}`).send({ mlsId: agent.mlsId, brokerage: 'Hudson Key' }).expect(200);
      expect((await t.db('agents').where({ id: agent.id }).first()).mlsId).toBe('NY11473');

      // A manual agent's MLS ID is display data: the signed-in agent sets it.
      const m = await newAgent();
      expect((await setUp(m.session, m.agent.id, uniqueEmail())).status).toBe(200);
      expect((await m.session.put(`/api/agents/${m.agent.id}`).send({ mlsId: 'MY-123' }).expect(200)).body.mlsId).toBe('MY-123');
    });
  });
});

describe('POST /api/auth/login and /api/auth/logout', () => {
  async function account() {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    expect((await setUp(session, agent.id, email)).status).toBe(200);
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
    await browser.get(`/api/agents/${agent.id}`).expect(404);
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

describe('password reset and change', () => {
  async function account(password = PASSWORD) {
    const { session, agent } = await newAgent();
    const email = uniqueEmail();
    expect((await setUp(session, agent.id, email, password)).status).toBe(200);
    return { session, agent, email };
  }
  const forgot = (email: string) => t.newSession().post('/api/auth/forgot-password').send({ email });

  it('“Forgot password?” answers the same whether or not the email has an account; only an account gets the link', async () => {
    const { email } = await account();
    const known = await forgot(email.toUpperCase()).expect(202);
    const unknown = await forgot(uniqueEmail()).expect(202);
    expect(known.body).toEqual({
      message: 'If an account exists for this email address, we have sent it a link to reset the password. The link works once, for 30 minutes.',
    });
    expect(unknown.body).toEqual(known.body);
    const mail = await waitForEmail(dataDir, email, 2);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.hasHtml && mail.hasText).toBe(true);
    expect(mail.body).toContain('/reset-password?token=');
  });

  it('the reset link sets a new password once, logs this browser in and ends every other session', async () => {
    const { session, agent, email } = await account();
    const other = t.newSession();
    await login(other, email, PASSWORD).expect(200);
    await forgot(email).expect(202);
    const token = (await waitForEmail(dataDir, email, 2)).token!;
    const weak = await t.newSession().post('/api/auth/reset-password').send({ token, password: 'password1' }).expect(400);
    expect(weak.body.code).toBe('agents.common_password');
    const browser = t.newSession();
    const res = await browser.post('/api/auth/reset-password').send({ token, password: 'a-brand-new-pass' }).expect(200);
    expect(res.body).toEqual({ id: agent.id, name: 'Dana Whitfield', purpose: 'password_reset', loggedIn: true });
    await browser.get('/api/auth/me').expect(200);
    // Both older sessions ended; the old password no longer works, the new one does.
    await session.get('/api/auth/me').expect(401);
    await other.get('/api/auth/me').expect(401);
    await login(t.newSession(), email, PASSWORD).expect(401);
    await login(t.newSession(), email, 'a-brand-new-pass').expect(200);
    await t.newSession().post('/api/auth/reset-password').send({ token, password: 'yet-another-pass' }).expect(400);
  });

  it('is rate limited per address: the sixth request within the hour is 429', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 5; i++) await forgot(email).expect(202);
    expect((await forgot(email).expect(429)).body.code).toBe('rate_limited');
  });

  it('change password: needs the current one, refuses common ones, and ends the other sessions', async () => {
    const { session, email } = await account();
    const other = t.newSession();
    await login(other, email, PASSWORD).expect(200);
    const wrong = await session.post('/api/auth/change-password').send({ currentPassword: 'not-it-at-all', newPassword: 'changed-pass-1' }).expect(400);
    expect(wrong.body.code).toBe('agents.current_password_wrong');
    const common = await session.post('/api/auth/change-password').send({ currentPassword: PASSWORD, newPassword: 'abc123' }).expect(400);
    expect(common.body.fields).toEqual({ newPassword: 'This password is too common. Please choose one that is harder to guess.' });
    await session.post('/api/auth/change-password').send({ currentPassword: PASSWORD, newPassword: 'changed-pass-1' }).expect(200);
    await session.get('/api/auth/me').expect(200);
    await other.get('/api/auth/me').expect(401);
    await login(t.newSession(), email, 'changed-pass-1').expect(200);
    await t.newSession().post('/api/auth/change-password').send({ currentPassword: 'changed-pass-1', newPassword: 'whatever-else-2' }).expect(401);
  });
});

import crypto from 'node:crypto';
import { leadSubmissionSchema, type LeadChallenge } from '@app/contracts';
import { findPublicListingRef } from '../listings';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { signedInBrowser, wizardBrowser } from '../../../test/factories';
import { LeadFormTokens } from './form-token';
import { LEAD_GUARD_THRESHOLD } from './lead-guard';
import { leadingZeroBits } from './lead-proof';
import { leadWriter } from './leads.service';

// Abuse that degrades instead of refusing (DESIGN §6 Leads). Workers are off: what reaches the agent is what was
// handed to delivery (a snapshot, and a message per channel that is on: email by default).
let t: TestContext;
let tokens: LeadFormTokens;
beforeAll(async () => {
  t = await createTestContext({ env: { TRUST_PROXY: 'true' } });
  tokens = new LeadFormTokens(t.config.SESSION_SECRET!);
});
afterAll(() => t.close());

let n = 0;
function form(mlsId: string, extra: Record<string, unknown> = {}) {
  n += 1;
  return {
    name: `Buyer ${n}`,
    email: `buyer.${n}@example.com`,
    phone: null,
    message: `Hello, I saw the house and would like to know more (${n}).`,
    interestedInTour: false,
    interestedInSimilar: false,
    website: '',
    formToken: tokens.issue(mlsId, Date.now() - 10_000),
    idempotencyKey: crypto.randomBytes(12).toString('base64url'),
    consentVersion: 'tcpa-2026-11',
    pageUrl: `https://homes.example.com/listing/${mlsId}`,
    ...extra,
  };
}
const send = (mlsId: string, body: object, from: string) => t.request.post(`/api/listings/${mlsId}/leads`).set('X-Forwarded-For', from).send(body);

/** What the page's script does: the first solution whose SHA-256 starts with `difficulty` zero bits. */
function solve(challenge: LeadChallenge): string {
  for (let i = 0; ; i++) {
    const solution = i.toString(36);
    if (leadingZeroBits(crypto.createHash('sha256').update(`${challenge.token}:${solution}`).digest()) >= challenge.difficulty) return solution;
  }
}

/** The leads handed to delivery (each has its snapshot) and the emails made for them, among `ids`. */
async function delivered(ids: number[]) {
  const snapshots = await t.db('notificationLeads').whereIn('leadId', ids).select('leadId');
  const emails = await t.db('notificationMessages').whereIn('leadId', ids).where({ channel: 'email', kind: 'lead.created' });
  return { leads: snapshots.map((r) => Number(r.leadId)), emails: emails.length };
}

describe('a flood of junk leads at one listing', () => {
  it('100 junk leads from 10 addresses, then a real buyer from an 11th: 201 and delivered; the agent is told of the first few, the rest are held', async () => {
    const { listing } = await wizardBrowser(t.newSession());
    const mlsId = listing.mlsId as string;
    // Ten addresses, ten leads each: within each address's limit of ten an hour. A script: no proof of work.
    const junk: number[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, a) => send(mlsId, form(mlsId), `198.51.${100 + a}.7`)));
      for (const res of answers) {
        expect(res.status).toBe(201);
        junk.push(res.body.id);
      }
    }
    const rows = await t.db('leads').whereIn('id', junk);
    expect(rows).toHaveLength(100);
    const notified = await delivered(junk);
    expect(notified.leads.length).toBeLessThanOrEqual(LEAD_GUARD_THRESHOLD + 1);
    expect(notified.emails).toBe(notified.leads.length);
    // The rest are held for review, not delivered.
    const held = rows.filter((r) => r.status === 'held');
    expect(held).toHaveLength(100 - notified.leads.length);
    expect(held.every((r) => r.holdReasons.includes('proof'))).toBe(true);

    // A real buyer from an eleventh address: asked for the proof of work, which the page solves and sends.
    const buyer = form(mlsId, { name: 'Riley Real', email: 'riley@example.com', message: 'Could we see it on Saturday?' });
    const first = await send(mlsId, buyer, '203.0.113.50').expect(201);
    expect(first.body.challenge).toEqual({ token: expect.any(String), difficulty: expect.any(Number) });
    const proved = await send(mlsId, { ...buyer, proof: { token: first.body.challenge.token, solution: solve(first.body.challenge) } }, '203.0.113.50').expect(201);
    expect(proved.body).toEqual({ id: first.body.id });
    expect((await t.db('leads').where({ id: first.body.id }).first()).status).toBe('received');
    expect(await delivered([first.body.id])).toEqual({ leads: [first.body.id], emails: 1 });
  });

  it('holds a lead that solves the proof but comes from an address or network over its count', async () => {
    const { listing } = await wizardBrowser(t.newSession());
    const mlsId = listing.mlsId as string;
    // A burst from one network guards the listing.
    for (let i = 0; i < 12; i++) await send(mlsId, form(mlsId), `192.0.2.${i + 1}`).expect(201);
    const body = form(mlsId);
    const first = await send(mlsId, body, '192.0.2.200').expect(201);
    // Its network sent 13 leads this hour: a proof does not release it; no challenge is offered.
    expect(first.body.challenge).toBeUndefined();
    const lead = await t.db('leads').where({ id: first.body.id }).first();
    expect(lead).toMatchObject({ status: 'held', holdReasons: ['network', 'proof'] });
  });
});

describe('the lead writer', () => {
  it('writes held leads in a lane of their own, committed without waiting for the disk, apart from the delivered ones', async () => {
    const { listing } = await wizardBrowser(t.newSession());
    const mlsId = listing.mlsId as string;
    const ref = (await findPublicListingRef({ caches: t.caches }, mlsId))!;
    const writer = leadWriter({ db: t.db, queue: t.queue, config: t.config, caches: t.caches });
    const lead = (hold: ['proof'] | null) => ({ ref, input: leadSubmissionSchema.parse(form(mlsId)), userAgent: null, now: Date.now(), hold });
    const statements: string[] = [];
    const onQuery = (q: { sql?: string }) => void (q.sql && statements.push(q.sql));
    t.db.on('query', onQuery);
    try {
      // Submitted in the same turn: one lane would write all three in one transaction.
      const [held, delivered, heldToo] = await Promise.all([writer.submit(lead(['proof'])), writer.submit(lead(null)), writer.submit(lead(['proof']))]);
      const xmin = async (id: number) => (await t.db('leads').where({ id }).first(t.db.raw('xmin::text as xmin'))).xmin as string;
      expect(await xmin(held.id)).toBe(await xmin(heldToo.id));
      expect(await xmin(delivered.id)).not.toBe(await xmin(held.id));
    } finally {
      t.db.off('query', onQuery);
    }
    expect(statements).toContain('set local synchronous_commit = off');
    // The delivered lead's transaction alone: durable (no such setting).
    statements.length = 0;
    t.db.on('query', onQuery);
    try {
      await writer.submit(lead(null));
    } finally {
      t.db.off('query', onQuery);
    }
    expect(statements.length).toBeGreaterThan(0);
    expect(statements).not.toContain('set local synchronous_commit = off');
  });
});

describe('exact repeats', () => {
  it('drops a lead that repeats a stored one (same email, name and message): the stored id, delivered once', async () => {
    const { listing } = await wizardBrowser(t.newSession());
    const mlsId = listing.mlsId as string;
    const body = form(mlsId);
    const first = await send(mlsId, body, '203.0.113.60').expect(201);
    // Another form (key), the same content, even with other case and spacing in the email and message.
    const again = await send(mlsId, { ...form(mlsId), name: body.name, email: body.email.toUpperCase(), message: `  ${body.message.toUpperCase()} ` }, '203.0.113.61').expect(201);
    expect(again.body).toEqual({ id: first.body.id });
    expect(await t.db('leads').where({ listingId: listing.id })).toHaveLength(1);
    expect(await delivered([first.body.id])).toEqual({ leads: [first.body.id], emails: 1 });
    // Another message is another lead.
    const other = await send(mlsId, { ...body, idempotencyKey: crypto.randomBytes(12).toString('base64url'), message: 'Something else entirely' }, '203.0.113.60').expect(201);
    expect(other.body.id).not.toBe(first.body.id);
  });
});

describe('the proof of work', () => {
  async function heldForProof() {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    const mlsId = listing.mlsId as string;
    for (let i = 0; i < LEAD_GUARD_THRESHOLD + 1; i++) await send(mlsId, form(mlsId), `203.0.${10 + i}.1`).expect(201);
    const body = form(mlsId);
    const res = await send(mlsId, body, '203.0.120.1').expect(201);
    expect(res.body.challenge).toBeDefined();
    return { session, agent, mlsId, body, id: res.body.id as number, challenge: res.body.challenge as LeadChallenge };
  }

  it('a wrong, foreign or reused proof releases nothing; the right one releases the lead once', async () => {
    const { mlsId, body, id, challenge } = await heldForProof();
    const resend = (proof: { token: string; solution: string }) => send(mlsId, { ...body, proof }, '203.0.120.1').expect(201);
    const solution = solve(challenge);
    const wrong = solution === '0' ? '1' : '0';
    expect((await resend({ token: challenge.token, solution: wrong })).body.challenge).toBeDefined();
    // A challenge for another form does not count for this one.
    const other = await heldForProof();
    await resend({ token: other.challenge.token, solution: solve(other.challenge) });
    expect((await t.db('leads').where({ id }).first()).status).toBe('held');
    expect(await delivered([id])).toEqual({ leads: [], emails: 0 });

    expect((await resend({ token: challenge.token, solution })).body).toEqual({ id });
    expect(await delivered([id])).toEqual({ leads: [id], emails: 1 });
    // Sent again: the same lead, delivered once.
    expect((await resend({ token: challenge.token, solution })).body).toEqual({ id });
    expect(await delivered([id])).toEqual({ leads: [id], emails: 1 });
  });

  it('is asked only while the listing is guarded; the guard decays', async () => {
    const { mlsId, listingId } = await heldForProof().then(async (h) => ({ mlsId: h.mlsId, listingId: (await t.db('listings').where({ mlsId: h.mlsId }).first()).id }));
    // An hour later the score has halved six times: below the threshold, leads go straight through again.
    await t.db('leadGuards').where({ listingId }).update({ scoredAt: t.db.raw(`scored_at - interval '1 hour'`) });
    const res = await send(mlsId, form(mlsId), '203.0.121.1').expect(201);
    expect(res.body).toEqual({ id: expect.any(Number) });
    expect(await delivered([res.body.id])).toMatchObject({ leads: [res.body.id] });
  });
});

describe('the challenge asked as the form opens', () => {
  const ask = (mlsId: string, body: { formToken: string; idempotencyKey: string }) => t.request.post(`/api/listings/${mlsId}/lead-challenge`).send(body);

  it('none while the listing is quiet; while guarded, a proof solved meanwhile delivers the first send, and counts nothing', async () => {
    const { listing } = await signedInBrowser(t, t.newSession());
    const mlsId = listing.mlsId as string;
    const quiet = form(mlsId);
    expect((await ask(mlsId, quiet).expect(200)).body).toEqual({ challenge: null });
    // Asking stores and counts nothing: the listing is no nearer its guard.
    expect(await t.db('leadGuards').where({ listingId: listing.id })).toEqual([]);

    for (let i = 0; i < LEAD_GUARD_THRESHOLD + 1; i++) await send(mlsId, form(mlsId), `203.0.${30 + i}.1`).expect(201);
    const body = form(mlsId);
    const { challenge } = (await ask(mlsId, body).expect(200)).body as { challenge: LeadChallenge };
    expect(challenge).toEqual({ token: expect.any(String), difficulty: expect.any(Number) });
    // The first send carries the proof: 201 without a challenge, received and delivered (not held).
    const res = await send(mlsId, { ...body, proof: { token: challenge.token, solution: solve(challenge) } }, '203.0.140.1').expect(201);
    expect(res.body).toEqual({ id: expect.any(Number) });
    expect((await t.db('leads').where({ id: res.body.id }).first()).status).toBe('received');
    expect(await delivered([res.body.id])).toEqual({ leads: [res.body.id], emails: 1 });
    // The challenge is this form's: another form cannot spend it.
    const other = form(mlsId);
    const foreign = await send(mlsId, { ...other, proof: { token: challenge.token, solution: solve(challenge) } }, '203.0.141.1').expect(201);
    expect(foreign.body.challenge).toBeDefined();
  });

  it('refuses a forged form token (400) and an unknown listing (404)', async () => {
    const { listing } = await signedInBrowser(t, t.newSession());
    const forged = await ask(listing.mlsId as string, { ...form(listing.mlsId as string), formToken: 'abc.def' }).expect(400);
    expect(forged.body.code).toBeDefined();
    await ask('NO-SUCH-LISTING', form('NO-SUCH-LISTING')).expect(404);
    await ask(listing.mlsId as string, { formToken: 42 } as never).expect(400);
  });
});

describe('reviewing held leads (the dashboard)', () => {
  it('lists them apart with why, and Release hands one to delivery as a new lead; Discard keeps it undelivered', async () => {
    const { session, agent, mlsId, id } = await (async () => {
      const { session, agent, listing } = await signedInBrowser(t, t.newSession());
      const mlsId = listing.mlsId as string;
      for (let i = 0; i < LEAD_GUARD_THRESHOLD + 3; i++) await send(mlsId, form(mlsId), `203.0.${30 + i}.1`).expect(201);
      const res = await send(mlsId, form(mlsId), '203.0.40.1').expect(201);
      return { session, agent, mlsId, id: res.body.id as number };
    })();
    const received = (await session.get(`/api/agents/${agent.id}/leads`).expect(200)).body;
    const held = (await session.get(`/api/agents/${agent.id}/leads?status=held`).expect(200)).body;
    expect(received.held).toBe(held.total);
    expect(held.total).toBeGreaterThanOrEqual(3);
    expect(received.total + held.total).toBe(LEAD_GUARD_THRESHOLD + 4);
    expect(held.leads[0]).toMatchObject({ id, status: 'held', holdReasons: ['proof'], listing: { mlsId } });
    expect(received.leads.map((l: { id: number }) => l.id)).not.toContain(id);

    await session.post(`/api/agents/${agent.id}/leads/${id}/release`).expect(200);
    expect(await delivered([id])).toEqual({ leads: [id], emails: 1 });
    const after = (await session.get(`/api/agents/${agent.id}/leads`).expect(200)).body;
    expect(after.leads[0]).toMatchObject({ id, status: 'received', holdReasons: [] });
    expect(after.held).toBe(held.total - 1);
    // Reviewed once: a second Release or a Discard is a 409.
    expect((await session.post(`/api/agents/${agent.id}/leads/${id}/release`).expect(409)).body.code).toBe('leads.not_held');
    await session.post(`/api/agents/${agent.id}/leads/${id}/discard`).expect(409);

    const discard = held.leads[1].id as number;
    await session.post(`/api/agents/${agent.id}/leads/${discard}/discard`).expect(200);
    expect(await delivered([discard])).toEqual({ leads: [], emails: 0 });
    const lists = await Promise.all(['received', 'held'].map(async (s) => (await session.get(`/api/agents/${agent.id}/leads?status=${s}`)).body.leads.map((l: { id: number }) => l.id)));
    expect(lists.flat()).not.toContain(discard);

    // Only the agent's own: a stranger hears 404, and another agent's lead id is a 404 here.
    await t.newSession().post(`/api/agents/${agent.id}/leads/${held.leads[2].id}/release`).expect(404);
    const other = await signedInBrowser(t, t.newSession());
    expect((await other.session.post(`/api/agents/${other.agent.id}/leads/${held.leads[2].id}/release`).expect(404)).body.code).toBe('leads.not_found');
    await session.get(`/api/agents/${agent.id}/leads?status=spam`).expect(400);
  });
});

import crypto from 'node:crypto';
import { LEAD_GUARD_MESSAGES, leadShownSchema } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { insertListingWithDraftCampaign, signedInBrowser } from '../../../test/factories';
import * as notifications from '../notifications';
import { LeadFormTokens } from './form-token';

// The notifications door, watched: the leads must reach it inside the transaction that stores them.
jest.mock('../notifications', () => ({ ...jest.requireActual('../notifications'), prepareLeadHandover: jest.fn() }));
const actualNotifications = jest.requireActual('../notifications') as typeof notifications;
const prepare = notifications.prepareLeadHandover as jest.MockedFunction<typeof notifications.prepareLeadHandover>;
/** Each hand-over the door was asked to send: with what, on which transaction, which leads. */
const handOvers: { deps: Parameters<typeof notifications.prepareLeadHandover>[0]; sql: unknown; leads: notifications.LeadForDelivery[] }[] = [];
/** The next hand-over is sent like this instead (then the door works as it does). */
let nextSend: ((send: notifications.LeadHandover['send'], ...args: Parameters<notifications.LeadHandover['send']>) => ReturnType<notifications.LeadHandover['send']>) | null = null;

let t: TestContext;
let tokens: LeadFormTokens;
beforeAll(async () => {
  // Behind a proxy, so each test can be its own client address (rate limits count per address).
  t = await createTestContext({ env: { TRUST_PROXY: 'true' } });
  tokens = new LeadFormTokens(t.config.SESSION_SECRET!);
});
afterAll(() => t.close());
beforeEach(() => {
  handOvers.length = 0;
  nextSend = null;
  prepare.mockImplementation(async (deps, agentIds) => {
    const handover = await actualNotifications.prepareLeadHandover(deps, agentIds);
    return {
      ...handover,
      send: (sql, leads, ids) => {
        handOvers.push({ deps, sql, leads: [...leads] });
        const instead = nextSend;
        nextSend = null;
        return instead ? instead(handover.send, sql, leads, ids) : handover.send(sql, leads, ids);
      },
    };
  });
});

let clients = 0;
/** A new client address each time (behind one proxy hop: the address the proxy appended). */
const ip = () => {
  clients += 1;
  return `203.0.113.9, 10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};
const key = () => crypto.randomBytes(12).toString('base64url');

let forms = 0;
/** A filled form; each one from another buyer (its own email), since an exact repeat of a lead is that lead. */
function form(mlsId: string, extra: Record<string, unknown> = {}) {
  forms += 1;
  return {
    name: 'Jordan Buyer',
    email: `Jordan.${forms}@Example.com`,
    phone: '(813) 555-0100',
    message: 'Is it still available?',
    interestedInTour: true,
    interestedInSimilar: false,
    website: '',
    formToken: tokens.issue(mlsId, Date.now() - 10_000),
    idempotencyKey: key(),
    consentVersion: 'tcpa-2026-11',
    pageUrl: `https://homes.example.com/listing/${mlsId}`,
    ...extra,
  };
}

function send(mlsId: string, body: unknown, from = ip()) {
  return t.request.post(`/api/listings/${mlsId}/leads`).set('X-Forwarded-For', from).set('User-Agent', 'Mozilla/5.0 (iPhone) test').send(body as object);
}

describe('POST /api/listings/:mlsId/leads', () => {
  it('stores the lead with its consent record and hands it to notifications in the same transaction: 201 with the id', async () => {
    const { mlsId, agentId, listingId } = await insertListingWithDraftCampaign(t.db);
    const body = form(mlsId);
    const res = await send(mlsId, body).expect(201);
    expect(res.body).toEqual({ id: expect.any(Number) });
    const row = await t.db('leads').where({ id: res.body.id }).first();
    expect(row).toMatchObject({
      listingId,
      agentId,
      name: 'Jordan Buyer',
      email: body.email.toLowerCase(),
      phone: '(813) 555-0100',
      message: 'Is it still available?',
      source: 'property_page',
      interestedInTour: true,
      interestedInSimilar: false,
      idempotencyKey: body.idempotencyKey,
      consentVersion: 'tcpa-2026-11',
      pageUrl: `https://homes.example.com/listing/${mlsId}`,
      userAgent: 'Mozilla/5.0 (iPhone) test',
    });
    expect(Math.abs(new Date(row.consentAt).getTime() - Date.now())).toBeLessThan(60_000);
    expect(handOvers).toHaveLength(1);
    const [{ deps, sql, leads }] = handOvers;
    expect(deps.queue).toBe(t.queue);
    expect(typeof (sql as { commit?: unknown }).commit).toBe('function');
    // The lead and its listing as delivered (a snapshot: retries send the same body).
    expect(leads).toHaveLength(1);
    expect((leads as unknown[])[0]).toMatchObject({
      id: res.body.id,
      agentId,
      listingId,
      name: 'Jordan Buyer',
      email: body.email.toLowerCase(),
      source: 'property_page',
      interestedInTour: true,
      listing: { mlsId, address: '12 Palm Ave', city: 'Tampa', state: 'FL', price: '450000' },
    });
    expect(deps.config).toBe(t.config);
  });

  it('defaults: no phone, no message, no interests, no consent shown (the manual listing page)', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const res = await send(mlsId, { name: 'Sam', email: 'sam@example.com', formToken: tokens.issue(mlsId, Date.now() - 4000), idempotencyKey: key() }).expect(201);
    const row = await t.db('leads').where({ id: res.body.id }).first();
    expect(row).toMatchObject({ phone: null, message: '', interestedInTour: false, interestedInSimilar: false, consentVersion: null, consentAt: null, pageUrl: null });
  });

  it('stores nothing when handing over to notifications fails (one transaction)', async () => {
    const { mlsId, listingId } = await insertListingWithDraftCampaign(t.db);
    nextSend = async () => {
      throw new Error('queue down');
    };
    await send(mlsId, form(mlsId)).expect(500);
    expect(await t.db('leads').where({ listingId })).toHaveLength(0);
  });

  it('stores nothing when a hand-over statement fails in the database after the lead was inserted (one transaction)', async () => {
    const { mlsId, listingId } = await insertListingWithDraftCampaign(t.db);
    const jobsBefore = Number((await t.db.raw(`select count(*)::int as n from pgboss.job where name = 'notifications.deliver'`)).rows[0].n);
    // A snapshot for a lead that does not exist breaks its foreign key; the messages and jobs sent behind it
    // are refused, and COMMIT rolls the lead back.
    nextSend = (door, sql, leads, ids) => door(sql, leads.map((l) => ({ ...l, id: 2_000_000_000 })), ids);
    // The first failure is the one answered (the error layer's 409 for a broken reference), not the refusals behind it.
    await send(mlsId, form(mlsId)).expect(409);
    expect(await t.db('leads').where({ listingId })).toHaveLength(0);
    expect(await t.db('notificationMessages').where({ leadId: 2_000_000_000 })).toHaveLength(0);
    expect(Number((await t.db.raw(`select count(*)::int as n from pgboss.job where name = 'notifications.deliver'`)).rows[0].n)).toBe(jobsBefore);
    // The same form again is stored and handed over.
    const res = await send(mlsId, form(mlsId)).expect(201);
    expect(await t.db('notificationLeads').where({ leadId: res.body.id })).toHaveLength(1);
  });

  it('a retry of the same form (same idempotency key) stores one lead and answers the same id', async () => {
    const { mlsId, listingId } = await insertListingWithDraftCampaign(t.db);
    const body = form(mlsId);
    const [a, b] = await Promise.all([send(mlsId, body), send(mlsId, body)]);
    const c = await send(mlsId, body);
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(b.body.id).toBe(a.body.id);
    expect(c.body.id).toBe(a.body.id);
    expect(await t.db('leads').where({ listingId })).toHaveLength(1);
    // A new form (new key) is a new lead.
    await send(mlsId, form(mlsId)).expect(201);
    expect(await t.db('leads').where({ listingId })).toHaveLength(2);
  });

  it('a second lead for a listing reads neither the listing nor the agent\'s settings again; a listing or settings stored by this process count at once', async () => {
    const first = await insertListingWithDraftCampaign(t.db);
    await send(first.mlsId, form(first.mlsId)).expect(201);
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    const reads = () => queries.filter((q) => /from "(listings|notification_settings)"/.test(q));
    const leadOf = async (res: { body: { id: number } }) => t.db('leads').where({ id: res.body.id }).first();
    const channelsOf = async (leadId: number) => (await t.db('notificationMessages').where({ leadId }).orderBy('channel')).map((m) => m.channel);
    t.db.on('query', count);
    try {
      const warm = await send(first.mlsId, form(first.mlsId)).expect(201);
      expect(reads()).toEqual([]);
      expect(await leadOf(warm)).toMatchObject({ listingId: first.listingId, agentId: first.agentId });
      expect(await channelsOf(warm.body.id)).toEqual(['email']);

      // The MLS moves the listing to another agent (that member's load re-points the one row): the next lead is theirs.
      const [other] = await t.db('agents').insert({ name: 'Riley Second', state: 'FL' }).returning('id');
      expect(await leadOf(await send(first.mlsId, form(first.mlsId)).expect(201))).toMatchObject({ agentId: first.agentId });
      await t.db('listings').where({ id: first.listingId }).update({ agentId: other.id });
      const moved = await send(first.mlsId, form(first.mlsId)).expect(201);
      expect(await leadOf(moved)).toMatchObject({ listingId: first.listingId, agentId: other.id });
      expect(await channelsOf(moved.body.id)).toEqual(['email']);

      // Settings saved now apply to the next lead: webhook and Zapier on, emails off.
      await t.db('notificationSettings').insert({ agentId: other.id, emailNotifications: false, webhookUrl: 'https://hooks.example.com/in', zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/a' });
      const wired = await send(first.mlsId, form(first.mlsId)).expect(201);
      expect(await channelsOf(wired.body.id)).toEqual(['webhook', 'zapier']);
      // Each message has its first attempt queued, in the lead's transaction.
      const messages = await t.db('notificationMessages').where({ leadId: wired.body.id });
      const jobs = (await t.db.raw(`select data from pgboss.job where name = 'notifications.deliver'`)).rows.map((r: { data: unknown }) => r.data);
      expect(jobs).toEqual(expect.arrayContaining(messages.map((m) => ({ messageId: Number(m.id), attempt: 1 }))));
      queries.length = 0;
      await send(first.mlsId, form(first.mlsId)).expect(201);
      expect(reads()).toEqual([]);
    } finally {
      t.db.off('query', count);
    }
  });

  it('400 with the field messages for missing name and email', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const res = await send(mlsId, form(mlsId, { name: '  ', email: 'not-an-email' })).expect(400);
    expect(res.body).toMatchObject({
      code: 'request.invalid',
      fields: { name: 'Name is required', email: 'Please enter a valid email address' },
    });
    const missing = await send(mlsId, { formToken: 'x', idempotencyKey: key() }).expect(400);
    expect(Object.keys(missing.body.fields)).toEqual(expect.arrayContaining(['name', 'email']));
  });

  it('refuses the honeypot, a forged, foreign or day-old token, and a send within 3 s, with a clear message', async () => {
    const { mlsId, listingId } = await insertListingWithDraftCampaign(t.db);
    const other = await insertListingWithDraftCampaign(t.db);
    expect((await send(mlsId, form(mlsId, { website: 'http://spam.example' })).expect(400)).body.code).toBe('leads.refused');

    const forged = tokens.issue(mlsId, Date.now() - 10_000).replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    expect((await send(mlsId, form(mlsId, { formToken: forged })).expect(400)).body).toMatchObject({
      code: 'leads.form_expired',
      message: LEAD_GUARD_MESSAGES.formToken,
      fields: { formToken: LEAD_GUARD_MESSAGES.formToken },
    });
    await send(mlsId, form(mlsId, { formToken: tokens.issue(other.mlsId, Date.now() - 10_000) })).expect(400);
    await send(mlsId, form(mlsId, { formToken: tokens.issue(mlsId, Date.now() - 25 * 60 * 60 * 1000) })).expect(400);
    const signedElsewhere = new LeadFormTokens('another-server-secret-0123456789abcdef').issue(mlsId, Date.now() - 10_000);
    await send(mlsId, form(mlsId, { formToken: signedElsewhere })).expect(400);

    const fast = await send(mlsId, form(mlsId, { formToken: tokens.issue(mlsId, Date.now() - 1000) })).expect(400);
    expect(fast.body).toMatchObject({ code: 'leads.too_fast', message: LEAD_GUARD_MESSAGES.tooFast, retryAfterSeconds: expect.any(Number) });
    expect(fast.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(fast.body.retryAfterSeconds).toBeLessThanOrEqual(3);
    expect(await t.db('leads').where({ listingId })).toHaveLength(0);
  });

  it('404 for a listing that does not exist', async () => {
    const res = await send('NOPE404', form('NOPE404')).expect(404);
    expect(res.body.code).toBe('leads.listing_not_found');
  });

  it('429 with Retry-After past 10 leads an hour from one address', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const from = ip();
    for (let i = 0; i < 10; i++) await send(mlsId, form(mlsId), from).expect(201);
    const refused = await send(mlsId, form(mlsId), from).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.code).toBe('rate_limited');
    // Another address still gets through.
    await send(mlsId, form(mlsId)).expect(201);
  });

  it('a retry counts once: resending a stored form spends no points, and still gets its id once the limit is spent', async () => {
    const { mlsId, listingId } = await insertListingWithDraftCampaign(t.db);
    const from = ip();
    const first = form(mlsId);
    const stored = await send(mlsId, first, from).expect(201);
    // Twelve resends of the same form from the same address: one lead, the same id, no points spent…
    for (let i = 0; i < 12; i++) expect((await send(mlsId, first, from).expect(201)).body.id).toBe(stored.body.id);
    // …so nine new forms still fit in the address's ten an hour.
    for (let i = 0; i < 9; i++) await send(mlsId, form(mlsId), from).expect(201);
    expect(await t.db('leads').where({ listingId })).toHaveLength(10);
    await send(mlsId, form(mlsId), from).expect(429);
    // The limit is spent, yet a retry of a stored form is answered with its lead, not refused.
    expect((await send(mlsId, first, from).expect(201)).body.id).toBe(stored.body.id);
    expect(await t.db('leads').where({ listingId })).toHaveLength(10);
  });

  it('leads sent at the same moment are all stored, each once, with one hand-over per lead', async () => {
    // Three leads a listing: under the threshold that guards a listing (a flood holds leads instead of delivering them).
    const listings = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => insertListingWithDraftCampaign(t.db)));
    const forms = Array.from({ length: 24 }, (_, i) => ({ mlsId: listings[i % 8].mlsId, body: form(listings[i % 8].mlsId) }));
    // Every third form is also sent twice more at once (a double tap).
    const sends = forms.flatMap((f, i) => (i % 3 === 0 ? [f, f, f] : [f]));
    const answers = await Promise.all(sends.map((f) => send(f.mlsId, f.body)));
    expect(answers.map((a) => a.status)).toEqual(sends.map(() => 201));
    const idOf = new Map<unknown, number>();
    sends.forEach((f, i) => {
      const id = answers[i].body.id as number;
      if (idOf.has(f.body)) expect(id).toBe(idOf.get(f.body));
      idOf.set(f.body, id);
    });
    expect(new Set(idOf.values()).size).toBe(24);
    const rows = await t.db('leads').whereIn('listingId', listings.map((l) => l.listingId));
    expect(rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual([...idOf.values()].sort((a, b) => a - b));
    const handedOver = handOvers.flatMap(({ leads }) => leads.map((l) => l.id));
    expect(handedOver.sort((a, b) => a - b)).toEqual([...idOf.values()].sort((a, b) => a - b));
    expect(await t.db('notificationLeads').whereIn('leadId', [...idOf.values()])).toHaveLength(24);
  });

  it('fuzz: malformed bodies get 4xx, never 5xx', async () => {
    const { mlsId } = await insertListingWithDraftCampaign(t.db);
    const values: unknown[] = [null, true, 0, -1, 1e308, '', ' ', 'x'.repeat(10_000), [], {}, ['a'], { $gt: '' }, '\u0000', '</script>', 'é😀', NaN];
    const fields = ['name', 'email', 'phone', 'message', 'interestedInTour', 'interestedInSimilar', 'website', 'formToken', 'idempotencyKey', 'consentVersion', 'pageUrl'];
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const bodies: unknown[] = [[], 'plain', 42, null];
    for (let i = 0; i < 120; i++) {
      const body: Record<string, unknown> = form(mlsId);
      for (let j = 0; j < 1 + rand(3); j++) body[fields[rand(fields.length)]] = values[rand(values.length)];
      if (rand(5) === 0) delete body[fields[rand(fields.length)]];
      bodies.push(body);
    }
    for (const body of bodies) {
      const res = await t.request
        .post(`/api/listings/${mlsId}/leads`)
        .set('X-Forwarded-For', ip())
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect(res.status).toBeLessThan(500);
      if (res.status !== 201) expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), code: expect.any(String) }));
    }
    for (const raw of ['{', '{"name":', 'null', '"x"', '\u0000']) {
      const res = await t.request.post(`/api/listings/${mlsId}/leads`).set('Content-Type', 'application/json').send(raw);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe('GET /api/agents/:id/leads', () => {
  it('shows the agent their own leads, newest first, as "Lead as shown"; 404 to a stranger and for nobody', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    const mlsId = listing.mlsId;
    const first = await send(mlsId, form(mlsId, { name: 'First Buyer', interestedInTour: false })).expect(201);
    const secondForm = form(mlsId, { name: 'Second Buyer', interestedInSimilar: true });
    const second = await send(mlsId, secondForm).expect(201);

    const res = await session.get(`/api/agents/${agent.id}/leads`).expect(200);
    expect(res.body.total).toBe(2);
    expect(res.body.held).toBe(0);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.leads.map((l: { id: number }) => l.id)).toEqual([second.body.id, first.body.id]);
    const shown = leadShownSchema.parse(res.body.leads[0]);
    expect(shown).toEqual({
      id: second.body.id,
      name: 'Second Buyer',
      email: secondForm.email.toLowerCase(),
      phone: '(813) 555-0100',
      // Formatted and dialable by libphonenumber-js, for the dashboard's lead list.
      phoneLink: { display: '(813) 555-0100', href: 'tel:+18135550100' },
      interest: 'Tour, Similar homes',
      message: 'Is it still available?',
      createdAt: expect.any(String),
      listing: { address: '12 Palm Ave', price: '450000', mlsId },
      status: 'received',
      holdReasons: [],
    });
    expect(res.body.leads[1].interest).toBe('General');
    // The consent record stays stored, not shown.
    expect(Object.keys(res.body.leads[0]).sort()).toEqual(['createdAt', 'email', 'holdReasons', 'id', 'interest', 'listing', 'message', 'name', 'phone', 'phoneLink', 'status']);

    // A stranger hears 404, as for an agent that does not exist (ids cannot be probed).
    await t.newSession().get(`/api/agents/${agent.id}/leads`).expect(404);
    await t.request.get(`/api/agents/${agent.id}/leads`).expect(404);
    await session.get('/api/agents/999999/leads').expect(404);
    await session.get('/api/agents/abc/leads').expect(400);
  });

  it('pages newest first by (time, id): leads of the same microsecond are neither skipped nor repeated; bad paging is a 400', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    const same = '2026-11-20T10:00:00.123456Z';
    const times = ['2026-11-21T08:00:00Z', same, same, same, '2026-11-19T09:30:00.000001Z', same, '2026-11-18T07:00:00Z'];
    const ids: number[] = [];
    for (const [i, createdAt] of times.entries()) {
      const [row] = await t.db('leads')
        .insert({ listingId: listing.id, agentId: agent.id, name: `Buyer ${i}`, email: `b${i}@example.com`, createdAt })
        .returning('id');
      ids.push(row.id);
    }
    // Newest first; within one instant, the higher id first.
    const expected = times
      .map((at, i) => ({ at: Date.parse(at) * 1000 + (at === same ? 456 : at.endsWith('.000001Z') ? 1 : 0), id: ids[i] }))
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .map((x) => x.id);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/agents/${agent.id}/leads?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await session.get(url).expect(200)).body;
      expect(page.total).toBe(7);
      expect(page.leads.length).toBeLessThanOrEqual(3);
      seen.push(...page.leads.map((l: { id: number }) => l.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);

    // The default page is 25; limit and cursor are checked.
    expect((await session.get(`/api/agents/${agent.id}/leads`).expect(200)).body.leads).toHaveLength(7);
    const bad = await session.get(`/api/agents/${agent.id}/leads?limit=0`).expect(400);
    expect(bad.body.fields).toEqual({ limit: 'limit must be a whole number from 1 to 100' });
    await session.get(`/api/agents/${agent.id}/leads?limit=101`).expect(400);
    expect((await session.get(`/api/agents/${agent.id}/leads?cursor=x.1`).expect(400)).body.fields).toEqual({ cursor: 'Invalid cursor' });
  });

  it('a lead sent a moment after the list was read is in the next read (the read cache is emptied by the write)', async () => {
    const { session, agent, listing } = await signedInBrowser(t, t.newSession());
    expect((await session.get(`/api/agents/${agent.id}/leads`).expect(200)).body.total).toBe(0);
    const sent = await send(listing.mlsId, form(listing.mlsId)).expect(201);
    const after = (await session.get(`/api/agents/${agent.id}/leads`).expect(200)).body;
    expect(after.total).toBe(1);
    expect(after.leads[0].id).toBe(sent.body.id);
  });
});

import type supertest from 'supertest';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { SEARCH_RATE_LIMIT } from './mls.routes';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

type Session = ReturnType<typeof supertest.agent>;

/** Search the demo MLS and create the agent found, as the wizard does. */
async function mlsAgent(browser: Session, name: string, state: string) {
  const { body: found } = await browser.post('/api/mls/search-agent').send({ name, state }).expect(200);
  const { body: agent } = await browser.post('/api/agents').send({ ...found, brokerage: null, phone: null }).expect(201);
  return { found, agent };
}

describe('POST /api/mls/search-agent', () => {
  it('answers name, state, email and mlsId of the active member, whatever the case and spacing', async () => {
    const res = await t.request.post('/api/mls/search-agent').send({ name: '  sarah   JOHNSON ', state: 'fl' }).expect(200);
    expect(res.body).toEqual({ name: 'Sarah Johnson', state: 'FL', email: 'sarah.johnson@bayshore-realty.example', mlsId: 'FL30418' });
  });

  it('is a 404 whose message contains "No active agent found" when nobody matches (or the member is inactive)', async () => {
    const res = await t.request.post('/api/mls/search-agent').send({ name: 'Jane  Doe', state: 'FL' }).expect(404);
    expect(res.body).toEqual({ message: 'No active agent found for "Jane Doe" in FL', code: 'mls.agent_not_found' });
    const inactive = await t.request.post('/api/mls/search-agent').send({ name: 'Robert Miller', state: 'FL' }).expect(404);
    expect(inactive.body.message).toContain('No active agent found');
  });

  it('validates with the agent form messages, and bad types are 400s, never 500s', async () => {
    const empty = await t.request.post('/api/mls/search-agent').send({}).expect(400);
    expect(empty.body).toMatchObject({ code: 'request.invalid', fields: { name: 'Name is required', state: 'State is required' } });
    const blank = await t.request.post('/api/mls/search-agent').send({ name: '   ', state: '' }).expect(400);
    expect(blank.body.fields).toEqual({ name: 'Name is required', state: 'State is required' });
    const types = await t.request.post('/api/mls/search-agent').send({ name: 42, state: ['FL'] }).expect(400);
    expect(types.body.fields).toEqual({ name: 'Name is required', state: 'State is required' });
    const badState = await t.request.post('/api/mls/search-agent').send({ name: 'Sarah Johnson', state: 'XX' }).expect(400);
    expect(badState.body.fields).toEqual({ state: 'Please select a valid US state' });
  });
});

describe('POST /api/mls/load', () => {
  it('loads the agent’s listings from the MLS, and loading again duplicates nothing but refreshes the values', async () => {
    const browser = t.newSession();
    const { agent } = await mlsAgent(browser, 'Sarah Johnson', 'FL');
    const first = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'FL30418' }).expect(200);
    expect(first.body).toEqual({ loaded: 12, skipped: 0 });
    expect(await t.db('listings').where({ agentId: agent.id }).count({ n: '*' }).first()).toEqual({ n: '12' });

    // The MLS is the source of truth: a changed row is restored on the next load, without a new row.
    await t.db('listings').where({ agentId: agent.id, mlsId: 'FL2600100' }).update({ priceCents: 1, city: 'Nowhere' });
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    t.db.on('query', onQuery);
    const again = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'FL30418' }).expect(200);
    t.db.off('query', onQuery);
    expect(again.body).toEqual({ loaded: 12, skipped: 0 });
    expect(await t.db('listings').where({ agentId: agent.id }).count({ n: '*' }).first()).toEqual({ n: '12' });
    const restored = await t.db('listings').where({ agentId: agent.id, mlsId: 'FL2600100' }).first();
    expect(restored).toMatchObject({ priceCents: '112500000', city: 'Tampa' });
    // One bulk upsert statement for the 12 listings, not one per listing.
    expect(statements.filter((s) => /^insert into "listings"/.test(s))).toHaveLength(1);
    // One row per MLS listing, whoever loads it (listings_mls_listing_unique): the load refreshes it and names its agent.
    expect(statements.find((s) => s.startsWith('insert into "listings"'))).toContain(`on conflict (mls_id) where mls_id not like 'MANUAL-%' do update set "agent_id" = excluded."agent_id"`);

    const listings = await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
    expect(listings.body.listings).toHaveLength(12);
    expect(listings.body.listings.map((l: { status: string }) => l.status)).toEqual([...Array(8).fill('active'), ...Array(4).fill('sold')]);
  });

  it('answers an MLS member without listings with allowManualEntry (David Kim)', async () => {
    const browser = t.newSession();
    const { agent } = await mlsAgent(browser, 'david kim', 'NY');
    const res = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'NY11473' }).expect(404);
    expect(res.body).toEqual({ message: "We couldn't find any active listings for your MLS ID.", code: 'mls.no_listings', allowManualEntry: true });
    expect((await browser.get(`/api/agents/${agent.id}/listings`).expect(200)).body).toEqual({ listings: [], nextCursor: null });
  });

  it('gives a manual agent (no MLS identity) the no-listings answer, even with its id as the mlsId', async () => {
    const browser = t.newSession();
    const { body: agent } = await browser.post('/api/agents').send({ name: 'Sarah Johnson', state: 'FL', manualEntry: true, mlsId: 'FL30418' }).expect(201);
    const res = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: agent.id }).expect(404);
    expect(res.body).toMatchObject({ code: 'mls.no_listings', allowManualEntry: true });
    const claimed = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'FL30418' }).expect(404);
    expect(claimed.body.code).toBe('mls.no_listings');
    expect(await t.db('listings').where({ agentId: agent.id }).count({ n: '*' }).first()).toEqual({ n: '0' });
  });

  it('loads only the agent’s own MLS ID', async () => {
    const browser = t.newSession();
    const { agent } = await mlsAgent(browser, 'Michael Chen', 'CA');
    const res = await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'TX52890' }).expect(403);
    expect(res.body.code).toBe('mls.mls_id_mismatch');
  });

  it('is for the agent’s own session only', async () => {
    const owner = t.newSession();
    const { agent } = await mlsAgent(owner, 'Emily Rodriguez', 'TX');
    const stranger = t.newSession();
    const res = await stranger.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'TX52890' }).expect(404);
    expect(res.body.code).toBe('agents.not_found');
    await stranger.post('/api/mls/load').send({ agentId: 999999, mlsId: 'TX52890' }).expect(404);
    expect(await t.db('listings').where({ agentId: agent.id }).count({ n: '*' }).first()).toEqual({ n: '0' });
  });

  it('validates agentId and mlsId (400 with fields, never 500)', async () => {
    const empty = await t.request.post('/api/mls/load').send({}).expect(400);
    expect(empty.body.fields).toEqual({ agentId: 'Must be a positive whole number', mlsId: 'MLS ID is required' });
    const types = await t.request.post('/api/mls/load').send({ agentId: 'abc', mlsId: { id: 1 } }).expect(400);
    expect(types.body.fields).toEqual({ agentId: 'Must be a positive whole number', mlsId: 'MLS ID is required' });
    const blank = await t.request.post('/api/mls/load').send({ agentId: 1.5, mlsId: '   ' }).expect(400);
    expect(blank.body.fields).toEqual({ agentId: 'Must be a positive whole number', mlsId: 'MLS ID is required' });
  });
});

describe('GET /demo-mls/photos/:file', () => {
  it('serves the bundled photos with long cache headers', async () => {
    const res = await t.request.get('/demo-mls/photos/exterior-01.jpg').buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((res.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('refuses anything but a photo file name (no path traversal)', async () => {
    for (const p of ['%2e%2e%2fMember.json', '..%2F..%2Fpackage.json', '.hidden.jpg', 'Member.json', 'missing-99.jpg']) {
      const res = await t.request.get(`/demo-mls/photos/${p}`);
      expect({ p, status: res.status }).toEqual({ p, status: 404 });
      expect(res.text).not.toContain('MemberMlsId');
    }
    const raw = await t.request.get('/demo-mls/photos/../Member.json');
    expect(raw.status).toBe(404);
    expect(raw.text).not.toContain('MemberMlsId');
  });
});

describe('rate limit', () => {
  // Last in this file: it spends this client's search budget.
  it(`allows ${SEARCH_RATE_LIMIT.points} agent searches a minute per client, then answers 429 with Retry-After`, async () => {
    let limited: supertest.Response | undefined;
    for (let i = 0; i <= SEARCH_RATE_LIMIT.points && !limited; i++) {
      const res = await t.request.post('/api/mls/search-agent').send({ name: 'Jane Doe', state: 'FL' });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(404);
    }
    expect(limited?.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
  });
});

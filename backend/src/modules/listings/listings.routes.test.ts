import zlib from 'node:zlib';
import type supertest from 'supertest';
import { LISTING_MESSAGES } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

type Session = ReturnType<typeof supertest.agent>;

async function manualAgent(browser: Session) {
  const { body } = await browser.post('/api/agents').send({ name: 'Dana Whitfield', state: 'FL', manualEntry: true }).expect(201);
  return body as { id: number };
}

const form = (agentId: number, extra: Record<string, unknown> = {}) => ({
  agentId,
  address: '12 Harbor View Dr',
  city: 'Naples',
  state: 'FL',
  price: '450000',
  bedrooms: 3,
  bathrooms: '2.0',
  squareFeet: 1500,
  status: 'active',
  images: ['/objects/uploads/00000000-0000-4000-8000-000000006131', '/objects/uploads/00000000-0000-4000-8000-000000006232'],
  ...extra,
});

describe('POST /api/listings (manual listing)', () => {
  it('creates the listing with a MANUAL-{timestamp} mlsId and the first image as the primary one', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const before = Date.now();
    const res = await browser.post('/api/listings').send(form(agent.id, { mlsId: 'FL30418', fullName: 'Dana Whitfield' })).expect(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      agentId: agent.id,
      address: '12 Harbor View Dr',
      city: 'Naples',
      state: 'FL',
      price: '450000',
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1500,
      status: 'active',
      imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000006131',
      images: ['/objects/uploads/00000000-0000-4000-8000-000000006131', '/objects/uploads/00000000-0000-4000-8000-000000006232'],
      amenities: {},
      listDate: null,
      latitude: null,
    });
    // Whatever the client sent, a manual listing's mlsId is MANUAL-{timestamp}.
    expect(res.body.mlsId).toMatch(/^MANUAL-\d{13}$/);
    const stamp = Number(res.body.mlsId.slice('MANUAL-'.length));
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(res.body).not.toHaveProperty('priceCents');
    expect(res.body).not.toHaveProperty('updatedAt');
  });

  it('keeps a MANUAL- id the client made, and refuses the same one twice', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const res = await browser.post('/api/listings').send(form(agent.id, { mlsId: 'MANUAL-1712345678901', imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000006232' })).expect(201);
    expect(res.body).toMatchObject({ mlsId: 'MANUAL-1712345678901', imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000006232' });
    const dup = await browser.post('/api/listings').send(form(agent.id, { mlsId: 'MANUAL-1712345678901' })).expect(409);
    expect(dup.body.code).toBe('listings.duplicate');
    const forged = await browser.post('/api/listings').send(form(agent.id, { mlsId: 'MANUAL-abc' })).expect(201);
    expect(forged.body.mlsId).toMatch(/^MANUAL-\d{13}$/);
  });

  it('keeps cents and quarter baths exactly', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const res = await browser.post('/api/listings').send(form(agent.id, { price: '450000.5', bathrooms: '2.25', images: [] })).expect(201);
    expect(res.body).toMatchObject({ price: '450000.50', bathrooms: '2.25', images: [], imageUrl: null });
    const row = await t.db('listings').where({ id: res.body.id }).first();
    expect(row.priceCents).toBe('45000050');
  });

  it('answers missing fields with the spec messages (400 with fields)', async () => {
    const res = await t.request.post('/api/listings').send({}).expect(400);
    expect(res.body.code).toBe('request.invalid');
    expect(res.body.fields).toEqual({
      agentId: 'Must be a positive whole number',
      address: LISTING_MESSAGES.address,
      city: LISTING_MESSAGES.city,
      state: LISTING_MESSAGES.state,
      price: LISTING_MESSAGES.price,
      bedrooms: LISTING_MESSAGES.bedrooms,
      bathrooms: LISTING_MESSAGES.bathrooms,
      squareFeet: LISTING_MESSAGES.squareFeet,
      status: LISTING_MESSAGES.status,
    });
  });

  it('answers wrong types and out-of-range values with field messages, never a 500', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const res = await browser
      .post('/api/listings')
      .send(form(agent.id, { price: 450000, bedrooms: -1, bathrooms: 'two', squareFeet: 0, status: 'pending', images: 'x.jpg', imageUrl: 'javascript:alert(1)' }))
      .expect(400);
    expect(res.body.fields).toEqual({
      price: LISTING_MESSAGES.price,
      bedrooms: LISTING_MESSAGES.bedrooms,
      bathrooms: LISTING_MESSAGES.bathroomsInvalid,
      squareFeet: LISTING_MESSAGES.squareFeet,
      status: LISTING_MESSAGES.status,
      images: expect.any(String),
      imageUrl: 'Image must be an http(s) URL or an uploaded /objects/ path',
    });
    const tooMany = await browser.post('/api/listings').send(form(agent.id, { images: Array.from({ length: 11 }, (_, i) => `/objects/uploads/${i}`) })).expect(400);
    expect(tooMany.body.fields).toEqual({ images: LISTING_MESSAGES.tooManyImages });
    const bigPrice = await browser.post('/api/listings').send(form(agent.id, { price: '100000000' })).expect(400);
    expect(bigPrice.body.fields).toEqual({ price: LISTING_MESSAGES.priceInvalid });
  });

  it('is for the agent’s own session only', async () => {
    const owner = t.newSession();
    const agent = await manualAgent(owner);
    const stranger = t.newSession();
    const res = await stranger.post('/api/listings').send(form(agent.id)).expect(404);
    expect(res.body.code).toBe('agents.not_found');
    await stranger.post('/api/listings').send(form(999999)).expect(404);
    expect(await t.db('listings').where({ agentId: agent.id }).count({ n: '*' }).first()).toEqual({ n: '0' });
  });
});

describe('GET /api/agents/:id/listings', () => {
  const SUMMARY_KEYS = [
    'id', 'agentId', 'mlsId', 'address', 'city', 'state', 'postalCode', 'price', 'bedrooms', 'bathrooms', 'squareFeet', 'status',
    'imageUrl', 'images', 'description',
  ].sort();

  it('lists active listings first, then sold, newest first, with only the loader’s fields', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const make = async (address: string, status: string) =>
      (await browser.post('/api/listings').send(form(agent.id, { address, status })).expect(201)).body.id as number;
    const oldSold = await make('1 Old Sold Rd', 'sold');
    const oldActive = await make('2 Old Active Rd', 'active');
    const newSold = await make('3 New Sold Rd', 'sold');
    const newActive = await make('4 New Active Rd', 'active');
    // Dates as an MLS load would set them.
    await t.db('listings').where({ id: oldSold }).update({ soldDate: '2026-01-10' });
    await t.db('listings').where({ id: newSold }).update({ soldDate: '2026-09-01', listDate: '2026-07-01' });
    await t.db('listings').where({ id: oldActive }).update({ listDate: '2025-12-01' });

    const { body } = await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
    expect(body.nextCursor).toBeNull();
    expect(body.listings.map((l: { id: number }) => l.id)).toEqual([newActive, oldActive, newSold, oldSold]);
    expect(body.listings[2]).toEqual({
      id: newSold,
      agentId: agent.id,
      mlsId: expect.stringMatching(/^MANUAL-\d+$/),
      address: '3 New Sold Rd',
      city: 'Naples',
      state: 'FL',
      postalCode: null,
      price: '450000',
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1500,
      status: 'sold',
      imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000006131',
      images: ['/objects/uploads/00000000-0000-4000-8000-000000006131', '/objects/uploads/00000000-0000-4000-8000-000000006232'],
      description: null,
    });
    for (const l of body.listings) expect(Object.keys(l).sort()).toEqual(SUMMARY_KEYS);
  });

  it('pages with limit and a cursor, in the same order, every listing once', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await browser.post('/api/listings').send(form(agent.id, { address: `${i} Page St`, status: i % 2 ? 'sold' : 'active' })).expect(201)).body.id);
    }
    // Equal dates inside a group: the id decides, so no listing is skipped or repeated at a page edge.
    await t.db('listings').whereIn('id', ids.slice(0, 4)).update({ listDate: '2026-05-01' });
    const { body: all } = await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
    expect(all.listings).toHaveLength(7);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const { body } = await browser.get(`/api/agents/${agent.id}/listings${q}`).expect(200);
      expect(body.listings.length).toBeLessThanOrEqual(3);
      seen.push(...body.listings.map((l: { id: number }) => l.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.listings.map((l: { id: number }) => l.id));
  });

  it('refuses a bad limit or cursor with field messages', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    const tooMany = await browser.get(`/api/agents/${agent.id}/listings?limit=501`).expect(400);
    expect(tooMany.body.fields).toEqual({ limit: 'limit must be a whole number from 1 to 500' });
    const bad = await browser.get(`/api/agents/${agent.id}/listings?cursor=1%3Bdrop`).expect(400);
    expect(bad.body.fields).toEqual({ cursor: 'Invalid cursor' });
  });

  it('answers a page read again within a few seconds from memory, and a new listing at once', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    await browser.post('/api/listings').send(form(agent.id)).expect(201);
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    t.db.on('query', count);
    try {
      expect((await browser.get(`/api/agents/${agent.id}/listings`).expect(200)).body.listings).toHaveLength(1);
      // Cold: the agent's access facts and the page, once each.
      expect(queries.filter((q) => /from "agents"/.test(q))).toHaveLength(1);
      expect(queries.filter((q) => /from "listings"/.test(q))).toHaveLength(1);
      queries.length = 0;
      expect((await browser.get(`/api/agents/${agent.id}/listings`).expect(200)).body.listings).toHaveLength(1);
      expect(queries).toEqual([]);
      // A listing stored by this process is in the next read.
      await browser.post('/api/listings').send(form(agent.id, { address: '14 Palm Ave' })).expect(201);
      queries.length = 0;
      expect((await browser.get(`/api/agents/${agent.id}/listings`).expect(200)).body.listings).toHaveLength(2);
      expect(queries.filter((q) => /from "listings"/.test(q))).toHaveLength(1);
    } finally {
      t.db.off('query', count);
    }
  });

  it('sends a page asked for again, by a browser, as the compressed bytes it stored the first time (compressed once)', async () => {
    const browser = t.newSession();
    const agent = await manualAgent(browser);
    for (let i = 0; i < 12; i++) await browser.post('/api/listings').send(form(agent.id, { address: `${i} Palm Ave` })).expect(201);
    const brotli = jest.spyOn(zlib, 'brotliCompress');
    try {
      // (The client decodes the body: what it got, and that it came in brotli.)
      const read = () => browser.get(`/api/agents/${agent.id}/listings`).set('Accept-Encoding', 'gzip, deflate, br').expect(200);
      const [first, second] = [await read(), await read()];
      expect({ encoding: second.headers['content-encoding'], vary: second.headers.vary, type: second.headers['content-type'] }).toEqual({
        encoding: 'br',
        vary: 'Accept-Encoding',
        type: 'application/json; charset=utf-8',
      });
      expect(second.body).toEqual(first.body);
      expect(second.body.listings).toHaveLength(12);
      // Compressed once, for both answers.
      expect(brotli.mock.calls.length).toBe(1);
    } finally {
      brotli.mockRestore();
    }
  });

  it('presents MLS listings with the loader’s fields', async () => {
    const browser = t.newSession();
    await browser.post('/api/mls/search-agent').send({ name: 'Emily Rodriguez', state: 'TX' }).expect(200);
    const { body: agent } = await browser.post('/api/agents').send({ name: 'Emily Rodriguez', state: 'TX', mlsId: 'TX52890' }).expect(201);
    await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: 'TX52890' }).expect(200);
    const { body } = await browser.get(`/api/agents/${agent.id}/listings`).expect(200);
    const kenwood = body.listings.find((l: { address: string }) => l.address === '1508 Kenwood Ave');
    expect(kenwood).toMatchObject({
      agentId: agent.id,
      city: 'Austin',
      state: 'TX',
      postalCode: '78704',
      price: '1195000',
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1760,
      status: 'active',
      imageUrl: kenwood.images[0],
      description: expect.any(String),
    });
    expect(kenwood.images.length).toBeGreaterThanOrEqual(4);
    const sold = body.listings.filter((l: { status: string }) => l.status === 'sold');
    expect(sold).toHaveLength(4);
  });

  it('is for the agent’s own session only, and validates the id', async () => {
    const owner = t.newSession();
    const agent = await manualAgent(owner);
    await owner.get(`/api/agents/${agent.id}/listings`).expect(200, { listings: [], nextCursor: null });
    const res = await t.newSession().get(`/api/agents/${agent.id}/listings`).expect(404);
    expect(res.body.code).toBe('agents.not_found');
    await owner.get('/api/agents/999999/listings').expect(404);
    const bad = await owner.get('/api/agents/abc/listings').expect(400);
    expect(bad.body.fields).toEqual({ id: 'Must be a positive whole number' });
  });

  it('still answers the wizard browser once the agent has an account: listings are draft-level (DESIGN §3)', async () => {
    const owner = t.newSession();
    const agent = await manualAgent(owner);
    await owner.post('/api/listings').send(form(agent.id)).expect(201);
    await t.db('agents').where({ id: agent.id }).update({ passwordHash: 'argon2-hash-set-elsewhere', verifiedAt: new Date(), email: 'owner@example.com' });
    expect((await owner.get(`/api/agents/${agent.id}/listings`).expect(200)).body.listings).toHaveLength(1);
    await owner.post('/api/listings').send(form(agent.id)).expect(201);
  });
});

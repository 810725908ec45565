import { createLogger } from '../../../platform/logger';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createDemoMlsProvider } from '../providers/demo.provider';
import { pollFeed } from '../feed/poll';
import { makeDemoChange, seedDemoMls, writeDemoDataset } from './demo-feed';
import { createDemoODataServer } from './demo-odata-server';

/* The demo MLS as a living feed: rows changed as an MLS changes them, replicated by the RESO provider's own code. */

const logger = createLogger('silent');
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedDemoMls(t.db);
});
afterAll(() => t.close());

const provider = () => createDemoMlsProvider({ db: t.db });
const poll = (top = 1000) => pollFeed({ db: t.db, queue: t.queue, config: { MLS_POLL_INTERVAL_S: 300, RESO_REPLICATION_TOP: top }, logger, provider: provider() }, { force: true });
const events = async (agent: string) => (await t.db('mlsListingEvents').where({ listAgentMlsId: agent }).orderBy('id').select('listingKey', 'type')).map((e) => `${e.listingKey}:${e.type}`);

describe('the demo MLS feed', () => {
  it('replicates through its Web API, then every change the ops CLI makes becomes one event', async () => {
    // The first pass copies the bundled listings; pages of 7 make it go through nextLinks and keyset queries.
    const first = await poll(7);
    expect(first).toMatchObject({ polled: true, feed: 'demo', result: { baseline: true, caughtUp: true, events: 0 } });
    const total = Number((await t.db('demoMlsProperties').count<{ count: string }[]>('* as count'))[0].count);
    expect(first.polled && first.result.applied).toBe(total);

    const created = await makeDemoChange(t.db, 'new-listing', 'FL30418');
    expect(created).toMatchObject({ change: 'new-listing', standardStatus: 'Active' });
    expect(created.listingKey).toMatch(/^FL26\d{6}$/);
    await poll();
    expect(await events('FL30418')).toEqual([`${created.listingKey}:new`]);

    const dropped = await makeDemoChange(t.db, 'price-drop', 'FL30418', created.listingKey);
    expect(dropped.listPrice).toBeLessThan(created.listPrice);
    await makeDemoChange(t.db, 'pending', 'FL30418', created.listingKey);
    await makeDemoChange(t.db, 'back-on-market', 'FL30418', created.listingKey);
    await poll();
    // Three changes of one listing before a poll: the MLS serves its latest record, so the poll sees active → active.
    expect(await events('FL30418')).toEqual([`${created.listingKey}:new`, `${created.listingKey}:price_drop`]);

    await makeDemoChange(t.db, 'pending', 'FL30418', created.listingKey);
    await poll();
    await makeDemoChange(t.db, 'sold', 'FL30418', created.listingKey);
    await poll();
    const other = await makeDemoChange(t.db, 'withdrawn', 'CA71265');
    await poll();
    expect(await events('FL30418')).toEqual([`${created.listingKey}:new`, `${created.listingKey}:price_drop`, `${created.listingKey}:pending`, `${created.listingKey}:sold`]);
    expect(await events('CA71265')).toEqual([`${other.listingKey}:withdrawn`]);
  });

  it('refuses changes an MLS would not make', async () => {
    await expect(makeDemoChange(t.db, 'new-listing', 'ZZ00000')).rejects.toThrow(/No member ZZ00000/);
    await expect(makeDemoChange(t.db, 'back-on-market', 'FL30418', 'FL2600100')).rejects.toThrow(/back-on-market starts from/);
    await expect(makeDemoChange(t.db, 'pending', 'FL30418', 'NOPE')).rejects.toThrow(/has no listing NOPE/);
  });

  it('the wizard\'s search and load run on the demo rows', async () => {
    const p = provider();
    expect((await p.searchMembers('sarah johnson', 'FL')).map((m) => m.mlsId)).toEqual(['FL30418']);
    const batch = await p.listingsForAgent('FL30418');
    // The bundled listings and the one made above (now sold) are all there, photos as same-origin paths.
    expect(batch.listings.length).toBeGreaterThanOrEqual(10);
    expect(batch.listings.every((l) => l.images.every((u) => u.startsWith('/demo-mls/photos/')))).toBe(true);
  });
});

describe('the demo MLS Web API', () => {
  const server = () => createDemoODataServer(t.db, { maxPageSize: 3, maxSkip: 5 });
  const get = async (path: string) => {
    const res = await server().handle(new URL(path, 'https://demo-mls.invalid/odata/'));
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    await writeDemoDataset(t.db, {
      members: [],
      properties: ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'].map((k, i) => ({
        ListingKey: k,
        ListAgentMlsId: 'QQ1',
        StandardStatus: i === 4 ? 'Closed' : 'Active',
        ListPrice: 100000 * (i + 1),
        City: 'Ocala',
        ModificationTimestamp: '2026-01-01T00:00:00Z',
        Media: [{ MediaCategory: 'Photo', MediaURL: `/demo-mls/photos/exterior-0${i + 1}.jpg` }],
      })),
    });
  });

  it('filters, orders and pages like a RESO server, with the keyset as its index reads it', async () => {
    const a = await get(`Property?$filter=${encodeURIComponent("ListAgentMlsId eq 'QQ1' and ListPrice ge 200000")}&$orderby=ListPrice desc&$count=true`);
    expect(a.status).toBe(200);
    expect(a.body['@odata.count']).toBe(4);
    expect(a.body.value.map((r: { ListingKey: string }) => r.ListingKey)).toEqual(['Q5', 'Q4', 'Q3']);
    expect(a.body.value[0].Media).toBeUndefined();
    const next = new URL(a.body['@odata.nextLink']);
    expect(next.searchParams.get('$skip')).toBe('3');
    const b = await get(`Property${next.search}`);
    expect(b.body.value.map((r: { ListingKey: string }) => r.ListingKey)).toEqual(['Q2']);
    expect(b.body['@odata.nextLink']).toBeUndefined();

    const keyset = "ModificationTimestamp gt 2026-01-01T00:00:00Z or (ModificationTimestamp eq 2026-01-01T00:00:00Z and ListingKey gt 'Q2')";
    const c = await get(`Property?$filter=${encodeURIComponent(`(${keyset}) and ListAgentMlsId eq 'QQ1'`)}&$orderby=ModificationTimestamp asc,ListingKey asc&$top=2&$expand=Media`);
    expect(c.body.value.map((r: { ListingKey: string; ModificationTimestamp: string }) => `${r.ListingKey}@${r.ModificationTimestamp}`)).toEqual([
      'Q3@2026-01-01T00:00:00.000Z',
      'Q4@2026-01-01T00:00:00.000Z',
    ]);
    expect(c.body.value[0].Media).toHaveLength(1);
    // $top 2 with more rows left: the answer is complete, no nextLink.
    expect(c.body['@odata.nextLink']).toBeUndefined();
  });

  it('answers like a server to what it cannot or will not do', async () => {
    expect((await get('Property?$skip=6')).status).toBe(400);
    expect((await get('Property?$skip=6')).body.error.message).toMatch(/\$skip is limited to 5/);
    expect((await get(`Property?$filter=${encodeURIComponent('ListPrice eq')}`)).status).toBe(400);
    expect((await get(`Property?$filter=${encodeURIComponent("contains(City, 'O')")}`)).status).toBe(400);
    expect((await get("Property('Q1')")).body.ListingKey).toBe('Q1');
    expect((await get("Property('NOPE')")).status).toBe(404);
    expect((await get('Office')).status).toBe(404);
    expect((await get(`Member?$filter=${encodeURIComponent("tolower(MemberLastName) eq 'johnson' and MemberStateOrProvince eq 'FL'")}`)).body.value.length).toBeGreaterThanOrEqual(1);
  });
});

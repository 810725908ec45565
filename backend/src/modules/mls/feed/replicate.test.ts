import nock from 'nock';
import { createLogger } from '../../../platform/logger';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createResoProvider, type ResoProviderOptions } from '../providers/reso.provider';
import type { MlsProvider } from '../providers';
import { pollFeed, recheckFeedListing } from './poll';

/*
 * RESO replication against the Web API's documented shapes (OData 4 collections with @odata.nextLink), with
 * nock standing in for the MLS: every query the replication sends is asserted exactly.
 */

const API = 'https://reso.example.com';
const ORDER = 'ModificationTimestamp asc,ListingKey asc';
const logger = createLogger('silent');

let t: TestContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
  nock.enableNetConnect();
  nock.restore();
});
afterEach(async () => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
  // Each test starts a feed from nothing.
  await t.db('mlsFeeds').delete();
});

function provider(opts: Partial<ResoProviderOptions> = {}): MlsProvider {
  return createResoProvider({ baseUrl: `${API}/odata`, bearerToken: 'tok', maxRetries: 0, sleep: async () => undefined, ...opts });
}

function record(key: string, stamp: string, extra: Record<string, unknown> = {}) {
  return { ListingKey: key, ModificationTimestamp: stamp, StandardStatus: 'Active', ListPrice: 400000, ListAgentMlsId: 'A100', UnparsedAddress: '1 Palm Ave', City: 'Orlando', StateOrProvince: 'FL', ...extra };
}

const page = (value: unknown[], nextLink?: string) => ({ '@odata.context': `${API}/odata/$metadata#Property`, value, ...(nextLink ? { '@odata.nextLink': nextLink } : {}) });
const keyset = (t: string, k: string) => `ModificationTimestamp gt ${t} or (ModificationTimestamp eq ${t} and ListingKey gt '${k}')`;
const first = (top: number) => ({ $orderby: ORDER, $top: String(top), $expand: 'Media' });
const after = (top: number, ts: string, key: string) => ({ ...first(top), $filter: keyset(ts, key) });

async function poll(p: MlsProvider, top = 2) {
  return pollFeed({ db: t.db, queue: t.queue, config: { MLS_POLL_INTERVAL_S: 300, RESO_REPLICATION_TOP: top }, logger, provider: p }, { force: true });
}

async function copied() {
  return (await t.db('mlsFeedListings').where({ feed: 'reso' }).orderBy('listingKey').select('listingKey', 'phase')).map((r) => `${r.listingKey}:${r.phase}`);
}

async function events() {
  return (await t.db('mlsListingEvents').where({ feed: 'reso' }).orderBy('id').select('listingKey', 'type')).map((r) => `${r.listingKey}:${r.type}`);
}

async function watermark() {
  const f = await t.db('mlsFeeds').where({ name: 'reso' }).first('watermarkTimestamp', 'watermarkKey');
  return f && `${f.watermarkTimestamp}|${f.watermarkKey}`;
}

const T1 = '2026-11-20T09:30:00Z';
const T2 = '2026-11-20T09:31:00.5Z';
const T3 = '2026-11-21T10:00:00Z';

describe('RESO replication', () => {
  it('keeps listings that share one timestamp across a page boundary: the keyset, not the timestamp alone', async () => {
    // B, C and D share T2; the page boundary falls between B and C. `gt T2` would lose C and D, `ge T2` repeat B.
    nock(API)
      .get('/odata/Property')
      .query(first(2))
      .reply(200, page([record('A', T1), record('B', T2)]))
      .get('/odata/Property')
      .query(after(2, T2, 'B'))
      .reply(200, page([record('C', T2), record('D', T2)]))
      .get('/odata/Property')
      .query(after(2, T2, 'D'))
      .reply(200, page([]));
    const out = await poll(provider());
    expect(out).toMatchObject({ polled: true, result: { pages: 3, records: 4, applied: 4, stale: 0, caughtUp: true, baseline: true } });
    expect(await copied()).toEqual(['A:active', 'B:active', 'C:active', 'D:active']);
    expect(await watermark()).toBe(`${T2}|D`);
    // The first pass copies what the MLS already had: that is not news.
    expect(await events()).toEqual([]);
  });

  it('follows @odata.nextLink where the server gives one, then asks by the keyset', async () => {
    nock(API)
      .get('/odata/Property')
      .query(first(2))
      .reply(200, page([record('A', T1)], `${API}/odata/Property?$skiptoken=abc123`))
      .get('/odata/Property')
      .query({ $skiptoken: 'abc123' })
      .reply(200, page([record('B', T2)]))
      // Two records asked for, two served by the query: there may be more, so the keyset goes on.
      .get('/odata/Property')
      .query(after(2, T2, 'B'))
      .reply(200, page([record('C', T3)]));
    const out = await poll(provider());
    expect(out).toMatchObject({ polled: true, result: { pages: 3, records: 3, caughtUp: true } });
    expect(await copied()).toEqual(['A:active', 'B:active', 'C:active']);
    expect(await watermark()).toBe(`${T3}|C`);
  });

  it('a provider that refuses $skip: its nextLink answers 400, and the keyset carries on without $skip', async () => {
    nock(API)
      .get('/odata/Property')
      .query(first(2))
      .reply(200, page([record('A', T1), record('B', T1)], `${API}/odata/Property?$orderby=${encodeURIComponent(ORDER)}&$top=2&$expand=Media&$skip=2`))
      .get('/odata/Property')
      .query({ ...first(2), $skip: '2' })
      .reply(400, { error: { code: '400', message: '$skip is not supported: use the ModificationTimestamp keyset' } })
      .get('/odata/Property')
      .query(after(2, T1, 'B'))
      .reply(200, page([record('C', T2)]));
    const out = await poll(provider());
    expect(out).toMatchObject({ polled: true, result: { records: 3, applied: 3, caughtUp: true } });
    expect(await copied()).toEqual(['A:active', 'B:active', 'C:active']);
  });

  it('never follows a nextLink whose $skip is past the provider\'s cap', async () => {
    nock(API)
      .get('/odata/Property')
      .query(first(2))
      .reply(200, page([record('A', T1), record('B', T1)], `${API}/odata/Property?$top=2&$skip=20000`))
      // No request with $skip=20000: the keyset instead.
      .get('/odata/Property')
      .query(after(2, T1, 'B'))
      .reply(200, page([]));
    await poll(provider({ maxSkip: 10_000 }));
    expect(await copied()).toEqual(['A:active', 'B:active']);
  });

  it('paces its requests to the provider\'s requests per second', async () => {
    const waits: number[] = [];
    const clock = 1_000_000;
    nock(API)
      .get('/odata/Property')
      .query(first(1))
      .reply(200, page([record('A', T1)]))
      .get('/odata/Property')
      .query(after(1, T1, 'A'))
      .reply(200, page([record('B', T2)]))
      .get('/odata/Property')
      .query(after(1, T2, 'B'))
      .reply(200, page([]));
    // The clock does not move on its own: every request after the first waits its slot (2 per second → 500 ms).
    await poll(provider({ requestsPerSecond: 2, now: () => clock, sleep: async (ms) => void waits.push(ms) }), 1);
    expect(waits).toEqual([500, 1000]);
  });

  it('a crash between pages: the restart resumes after the last page applied, with no gap and no duplicate', async () => {
    nock(API)
      .get('/odata/Property')
      .query(first(2))
      .reply(200, page([record('A', T1), record('B', T1)]))
      .get('/odata/Property')
      .query(after(2, T1, 'B'))
      .reply(200, page([record('C', T2), record('D', T2)]))
      .get('/odata/Property')
      .query(after(2, T2, 'D'))
      .reply(200, page([]));
    await poll(provider());
    expect(await watermark()).toBe(`${T2}|D`);

    // Now the incremental polls: the second page of changes fails (the MLS is down).
    nock(API)
      .get('/odata/Property')
      .query(after(2, T2, 'D'))
      .reply(200, page([record('A', T3, { StandardStatus: 'Pending' }), record('E', T3)]))
      .get('/odata/Property')
      .query(after(2, T3, 'E'))
      .reply(503, 'maintenance');
    await expect(poll(provider())).rejects.toThrow(/503/);
    expect(await watermark()).toBe(`${T3}|E`);
    expect(await events()).toEqual(['A:pending', 'E:new']);

    // The restart asks from the watermark: the page that failed is read again, the one that committed is not.
    nock(API)
      .get('/odata/Property')
      .query(after(2, T3, 'E'))
      .reply(200, page([record('F', T3), record('B', '2026-11-22T08:00:00Z', { ListPrice: 380000 })]))
      .get('/odata/Property')
      .query(after(2, '2026-11-22T08:00:00Z', 'B'))
      .reply(200, page([]));
    await poll(provider());
    expect(await events()).toEqual(['A:pending', 'E:new', 'F:new', 'B:price_drop']);
    const feed = await t.db('mlsFeeds').where({ name: 'reso' }).first('lastError', 'leaseOwner');
    expect(feed).toEqual({ lastError: null, leaseOwner: null });
  });

  it('deletions: MlgCanView false, an off-market status, and a 404 on re-read each become a withdrawn event', async () => {
    nock(API)
      .get('/odata/Property')
      .query(first(5))
      .reply(200, page([record('A', T1), record('B', T1), record('C', T1)]));
    await poll(provider(), 5);

    nock(API)
      .get('/odata/Property')
      .query(after(5, T1, 'C'))
      .reply(200, page([record('A', T2, { MlgCanView: false }), record('B', T2, { StandardStatus: 'Expired' })]));
    await poll(provider(), 5);
    expect(await events()).toEqual(['A:withdrawn', 'B:withdrawn']);
    const reasons = await t.db('mlsListingEvents').orderBy('id').pluck('reason');
    expect(reasons).toEqual(['MlgCanView is false (deleted by the MLS)', 'StandardStatus Expired']);

    // C is never served again (servers without a delete flag): the re-read says 404.
    nock(API).get("/odata/Property('C')").query({ $expand: 'Media' }).reply(404, { error: { code: '404', message: 'Not found' } });
    const p = provider();
    expect(await recheckFeedListing({ db: t.db, queue: t.queue, logger, provider: p }, 'C')).toBe('off_market');
    expect(await events()).toEqual(['A:withdrawn', 'B:withdrawn', 'C:withdrawn']);
    // A second re-read finds nothing new to say.
    nock(API).get("/odata/Property('C')").query({ $expand: 'Media' }).reply(404, {});
    await recheckFeedListing({ db: t.db, queue: t.queue, logger, provider: p }, 'C');
    expect(await events()).toHaveLength(3);
    expect(await copied()).toEqual(['A:off_market', 'B:off_market', 'C:off_market']);
  });

  it('replaying the feed from an old watermark (three times) stores no event twice and undoes nothing', async () => {
    const base = [record('A', T1), record('B', T1)];
    const changes = [record('A', T2, { ListPrice: 390000 }), record('B', T3, { StandardStatus: 'Closed', ClosePrice: 399000 })];
    nock(API).get('/odata/Property').query(first(5)).reply(200, page(base));
    await poll(provider(), 5);
    nock(API).get('/odata/Property').query(after(5, T1, 'B')).reply(200, page(changes));
    await poll(provider(), 5);
    expect(await events()).toEqual(['A:price_drop', 'B:sold']);

    for (let i = 0; i < 3; i++) {
      // Back to the start: the MLS serves every version again, oldest first.
      await t.db('mlsFeeds').where({ name: 'reso' }).update({ watermarkTimestamp: null, watermarkKey: null });
      nock(API).get('/odata/Property').query(first(5)).reply(200, page([...base, ...changes]));
      const out = await poll(provider(), 5);
      // Four records, two listings (a key twice in a page: its later record counts), both no newer than our copy.
      expect(out).toMatchObject({ polled: true, result: { records: 4, applied: 0, stale: 2, events: 0 } });
    }
    expect(await events()).toEqual(['A:price_drop', 'B:sold']);
    expect(await copied()).toEqual(['A:active', 'B:sold']);
    expect(await watermark()).toBe(`${T3}|B`);
  });

  it('one poll at a time per feed, and not before it is due', async () => {
    nock(API).get('/odata/Property').query(first(2)).reply(200, page([]));
    await poll(provider());
    // Due again in MLS_POLL_INTERVAL_S: the scheduled job does nothing until then.
    const again = await pollFeed({ db: t.db, queue: t.queue, config: { MLS_POLL_INTERVAL_S: 300, RESO_REPLICATION_TOP: 2 }, logger, provider: provider() });
    expect(again).toEqual({ polled: false, feed: 'reso', reason: 'not_due' });
    // Another process holds the lease: even a forced poll waits.
    await t.db('mlsFeeds').where({ name: 'reso' }).update({ leaseOwner: 'other', leaseUntil: t.db.raw(`now() + interval '1 minute'`) });
    expect(await poll(provider())).toEqual({ polled: false, feed: 'reso', reason: 'busy' });
  });

  it('a page whose lease was taken over is not applied', async () => {
    nock(API).get('/odata/Property').query(first(2)).reply(200, page([record('A', T1)]));
    const p = provider();
    const slow: MlsProvider = {
      ...p,
      async changesPage(req) {
        const answer = await p.changesPage(req);
        // Meanwhile this poll's lease ran out and another poll took the feed.
        await t.db('mlsFeeds').where({ name: 'reso' }).update({ leaseOwner: 'other' });
        return answer;
      },
    };
    await expect(poll(slow)).rejects.toThrow(/lease was taken over/);
    expect(await copied()).toEqual([]);
  });
});

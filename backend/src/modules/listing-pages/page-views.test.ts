import { createTestContext, type TestContext } from '../../../test/helpers';
import { createLogger } from '../../platform/logger';
import { listingPageViews, PageViewCounter } from './page-views';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('listing-page views', () => {
  it('are counted in memory and added to the table in one flush; flushes from several processes add up', async () => {
    const day = Date.parse('2026-11-20T12:00:00Z');
    const a = new PageViewCounter(t.db, createLogger('silent'), 60_000);
    const b = new PageViewCounter(t.db, createLogger('silent'), 60_000);
    for (let i = 0; i < 3; i++) a.count('FL100', day);
    a.count('FL200', day);
    a.count('FL100', day + 86_400_000);
    b.count('FL100', day);
    // Nothing is written until a flush.
    expect(await t.db('listingPageViews').count('* as n').first()).toEqual({ n: '0' });
    await Promise.all([a.flush(), b.flush()]);
    const rows = await t.db('listingPageViews').orderBy(['mlsId', 'day']).select('mlsId', t.db.raw('day::text as day'), 'views');
    expect(rows).toEqual([
      { mlsId: 'FL100', day: '2026-11-20', views: 4 },
      { mlsId: 'FL100', day: '2026-11-21', views: 1 },
      { mlsId: 'FL200', day: '2026-11-20', views: 1 },
    ]);
    a.count('FL100', day);
    await a.flush();
    await a.flush();
    expect(await t.db('listingPageViews').where({ mlsId: 'FL100', day: '2026-11-20' }).first('views')).toEqual({ views: 5 });
  });

  it('are read per window of days, as counts', async () => {
    const views = await listingPageViews(t.db, [
      { key: 1, mlsId: 'FL100', fromDay: '2026-11-20', toDay: '2026-11-21' },
      { key: 2, mlsId: 'FL100', fromDay: '2026-11-21', toDay: '2026-11-30' },
      { key: 3, mlsId: 'NONE', fromDay: '2026-11-01', toDay: '2026-11-30' },
    ]);
    expect(Object.fromEntries(views)).toEqual({ 1: 6, 2: 1, 3: 0 });
  });
});

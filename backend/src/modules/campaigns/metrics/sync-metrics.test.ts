import nock from 'nock';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createLogger } from '../../../platform/logger';
import { insertListingWithDraftCampaign } from '../../../../test/factories';
import { graphError, META_TEST_ENV } from '../testing/meta-graph-shapes';
import { syncCampaignMetrics } from './sync-metrics';

let t: TestContext;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  // Meta configured; no workers: the tests run the pass themselves.
  t = await createTestContext({ env: META_TEST_ENV });
});
afterAll(() => t.close());
afterEach(async () => {
  nock.cleanAll();
  await t.db('adPlatformUsage').del();
  await t.db('campaigns').where({ status: 'active' }).update({ status: 'canceled' });
});

const sync = (force = true) => syncCampaignMetrics({ db: t.db, config: t.config, logger: createLogger('silent'), force });
const HOUR = 3600_000;
const GRAPH = 'https://graph.facebook.com';
const usage = (pct: number, regain = 0) => JSON.stringify({ '99': [{ type: 'ads_insights', call_count: pct, total_cputime: 1, total_time: 1, estimated_time_to_regain_access: regain }] });
const row = (id: string, day: string, impressions: number, clicks = Math.round(impressions / 100)) => ({
  campaign_id: id, date_start: day, date_stop: day, impressions: String(impressions), reach: String(Math.round(impressions * 0.8)), clicks: String(clicks),
  inline_link_clicks: String(Math.floor(clicks * 0.8)), ctr: '1.0', frequency: '1.25', spend: '5.00',
});

async function activeCampaign(facebookCampaignId: string, window: { startsAt: Date; endsAt: Date }, extra: Record<string, unknown> = {}) {
  const { campaignId } = await insertListingWithDraftCampaign(t.db, { status: 'active', facebookCampaignId, ...window, ...extra });
  return campaignId;
}

/** Meta answering the daily read (pages as given) and the lifetime read for the campaigns given. */
function insights(pages: Record<string, unknown>[][], lifetime: Record<string, unknown>[], headers: Record<string, string> = {}) {
  const scope = nock(GRAPH);
  pages.forEach((data, i) => {
    scope
      .get('/v26.0/act_1234/insights')
      .query((q) => q.time_increment === '1' && (i === 0 ? !q.after : q.after === `P${i}`))
      .reply(200, { data, paging: { cursors: { after: `P${i + 1}` }, ...(i < pages.length - 1 ? { next: `${GRAPH}/v26.0/act_1234/insights?after=P${i + 1}` } : {}) } }, headers);
  });
  scope.get('/v26.0/act_1234/insights').query((q) => q.date_preset === 'maximum').reply(200, { data: lifetime }, headers);
  return scope;
}

describe('campaigns.sync-metrics', () => {
  it('stores Meta’s daily rows over every page and the lifetime totals', async () => {
    const now = Date.now();
    const id = await activeCampaign('9001', { startsAt: new Date(now - 48 * HOUR), endsAt: new Date(now + 48 * HOUR) });
    const scope = insights(
      [[row('9001', '2026-11-01', 1000), row('9001', '2026-11-02', 1500)], [row('9001', '2026-11-03', 700)]],
      [{ campaign_id: '9001', impressions: '3200', reach: '2100', clicks: '32', inline_link_clicks: '25', spend: '15.00' }],
    );
    const result = await sync();
    expect(scope.isDone()).toBe(true);
    expect(result).toMatchObject({ updated: 1, rowsChanged: 3, calls: 3, completed: [] });
    const days = await t.db('campaignDailyMetrics').where({ campaignId: id }).orderBy('day').select(t.db.raw('day::text as day'), 'impressions', 'reach', 'clicks', 'linkClicks', 'spendCents');
    expect(days).toEqual([
      { day: '2026-11-01', impressions: 1000, reach: 800, clicks: 10, linkClicks: 8, spendCents: 500 },
      { day: '2026-11-02', impressions: 1500, reach: 1200, clicks: 15, linkClicks: 12, spendCents: 500 },
      { day: '2026-11-03', impressions: 700, reach: 560, clicks: 7, linkClicks: 5, spendCents: 500 },
    ]);
    expect(await t.db('campaigns').where({ id }).first('impressionsDelivered', 'reach', 'clicks', 'linkClicks', 'spendCents')).toEqual({
      impressionsDelivered: 3200, reach: 2100, clicks: 32, linkClicks: 25, spendCents: 1500,
    });
  });

  it('a re-sync that changes nothing rewrites no daily row; a changed day is updated alone', async () => {
    const now = Date.now();
    const id = await activeCampaign('9101', { startsAt: new Date(now - 48 * HOUR), endsAt: new Date(now + 48 * HOUR) });
    const lifetime = [{ campaign_id: '9101', impressions: '2500', reach: '2000', clicks: '25', inline_link_clicks: '20', spend: '10.00' }];
    insights([[row('9101', '2026-11-01', 1000), row('9101', '2026-11-02', 1500)]], lifetime);
    await sync();
    const before = await t.db('campaignDailyMetrics').where({ campaignId: id }).orderBy('day').select('day', 'updatedAt');

    insights([[row('9101', '2026-11-01', 1000), row('9101', '2026-11-02', 1500)]], lifetime);
    expect((await sync()).rowsChanged).toBe(0);
    expect(await t.db('campaignDailyMetrics').where({ campaignId: id }).orderBy('day').select('day', 'updatedAt')).toEqual(before);

    insights([[row('9101', '2026-11-01', 1000), row('9101', '2026-11-02', 1600)]], lifetime);
    expect((await sync()).rowsChanged).toBe(1);
  });

  it('backs off when x-business-use-case-usage nears 100 %: no call to Meta until the time it named, in any process', async () => {
    const now = Date.now();
    await activeCampaign('9201', { startsAt: new Date(now - 48 * HOUR), endsAt: new Date(now + 48 * HOUR) });
    const scope = nock(GRAPH)
      .get('/v26.0/act_1234/insights')
      .query((q) => q.time_increment === '1')
      .reply(200, { data: [row('9201', '2026-11-01', 10)], paging: { cursors: { after: 'X' }, next: `${GRAPH}/next` } }, { 'x-business-use-case-usage': usage(95, 20) });
    const first = await sync();
    expect(scope.isDone()).toBe(true);
    expect(first.backedOff).toEqual(['meta']);
    const u = await t.db('adPlatformUsage').where({ platform: 'meta' }).first();
    expect(u.usagePercent).toBe(95);
    expect(new Date(u.blockedUntil).getTime()).toBeGreaterThan(Date.now() + 19 * 60_000);

    // No interceptor: any call would fail the test (nock refuses the connection).
    const second = await sync();
    expect(second).toMatchObject({ calls: 0, updated: 0, backedOff: ['meta'] });
  });

  it('ends a campaign whose goal is reached and one whose flight is over: stopped at Meta, read once more, completed', async () => {
    const now = Date.now();
    const goal = await activeCampaign('9301', { startsAt: new Date(now - 48 * HOUR), endsAt: new Date(now + 48 * HOUR) }, { impressionsRequested: 1000 });
    const over = await activeCampaign('9302', { startsAt: new Date(now - 10 * 24 * HOUR), endsAt: new Date(now - HOUR) }, { impressionsRequested: 5000 });
    const lifetime = [
      { campaign_id: '9301', impressions: '1003', reach: '900', clicks: '9', inline_link_clicks: '7', spend: '9.90' },
      { campaign_id: '9302', impressions: '4100', reach: '3000', clicks: '41', inline_link_clicks: '30', spend: '40.00' },
    ];
    insights([[row('9301', '2026-11-01', 1003), row('9302', '2026-11-01', 4100)]], lifetime);
    const stops = nock(GRAPH).post('/v26.0/9301', { status: 'PAUSED' }).reply(200, { success: true }).post('/v26.0/9302', { status: 'PAUSED' }).reply(200, { success: true });
    insights([[row('9301', '2026-11-01', 1003), row('9302', '2026-11-01', 4100)]], lifetime);
    const result = await sync();
    expect(stops.isDone()).toBe(true);
    expect(result.completed).toEqual([goal, over]);
    const rows = await t.db('campaigns').whereIn('id', [goal, over]).orderBy('id').select('status', 'endReason', 'impressionsDelivered');
    expect(rows).toEqual([
      { status: 'completed', endReason: 'goal reached', impressionsDelivered: 1003 },
      { status: 'completed', endReason: 'flight over', impressionsDelivered: 4100 },
    ]);
    expect(await t.db('campaigns').whereIn('id', [goal, over]).whereNotNull('endedAt').count('* as n').first()).toEqual({ n: '2' });
  });

  it('a stop Meta refuses leaves the campaign active for the next pass', async () => {
    const now = Date.now();
    const id = await activeCampaign('9401', { startsAt: new Date(now - 10 * 24 * HOUR), endsAt: new Date(now - 2 * 24 * HOUR) });
    insights([[]], []);
    nock(GRAPH).post('/v26.0/9401').reply(500, graphError(2, 'Service temporarily unavailable'));
    expect((await sync()).completed).toEqual([]);
    expect((await t.db('campaigns').where({ id }).first()).status).toBe('active');
  });

  it('a launch left without a job (its last attempt died with its process) becomes launch_failed, visibly', async () => {
    const { campaignId: stuck } = await insertListingWithDraftCampaign(t.db, { status: 'launching', statusChangedAt: new Date(Date.now() - 20 * 60_000) });
    const { campaignId: recent } = await insertListingWithDraftCampaign(t.db, { status: 'launching', statusChangedAt: new Date() });
    const { campaignId: queued } = await insertListingWithDraftCampaign(t.db, { status: 'launching', statusChangedAt: new Date(Date.now() - 20 * 60_000) });
    await t.queue.boss.createQueue('campaigns.launch');
    await t.queue.boss.send('campaigns.launch', { campaignId: queued }, { startAfter: 3600 });

    const result = await sync();
    expect(result.stuckLaunches).toEqual([stuck]);
    const c = await t.db('campaigns').where({ id: stuck }).first();
    expect(c.status).toBe('launch_failed');
    expect(c.launchError).toMatch(/^The launch stopped without finishing/);
    expect((await t.db('campaigns').whereIn('id', [recent, queued]).select('status')).map((r: { status: string }) => r.status)).toEqual(['launching', 'launching']);
  });
});

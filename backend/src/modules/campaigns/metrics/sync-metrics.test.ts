import nock from 'nock';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createLogger } from '../../../platform/logger';
import { insertDraftCampaign } from '../testing/fixtures';
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
afterEach(() => nock.cleanAll());

const sync = () => syncCampaignMetrics({ db: t.db, config: t.config, logger: createLogger('silent') });
const HOUR = 3600_000;

async function activeCampaign(facebookCampaignId: string, window: { startsAt: Date; endsAt: Date }) {
  const { campaignId } = await insertDraftCampaign(t.db, { status: 'active', facebookCampaignId, ...window });
  return campaignId;
}

describe('campaigns.sync-metrics', () => {
  it('writes Meta delivery for every active campaign, and completes those past their end once synced', async () => {
    const now = Date.now();
    const running = await activeCampaign('9001', { startsAt: new Date(now - 48 * HOUR), endsAt: new Date(now + 48 * HOUR) });
    const ended = await activeCampaign('9002', { startsAt: new Date(now - 10 * 24 * HOUR), endsAt: new Date(now - HOUR) });
    const refused = await activeCampaign('9003', { startsAt: new Date(now - 48 * HOUR), endsAt: new Date(now + 48 * HOUR) });
    nock('https://graph.facebook.com')
      .get('/v26.0/9001/insights')
      .query(true)
      .reply(200, { data: [{ impressions: '4200', reach: '2800', clicks: '51', date_start: '2026-11-01', date_stop: '2026-11-03' }] })
      .get('/v26.0/9002/insights')
      .query(true)
      .reply(200, { data: [{ impressions: '5003', reach: '3300', clicks: '60' }] })
      .get('/v26.0/9003/insights')
      .query(true)
      .reply(400, graphError(100, 'Object does not exist'));

    const result = await sync();
    expect(result.updated).toBe(2);
    expect(result.completed).toEqual([ended]);
    const rows = await t.db('campaigns').whereIn('id', [running, ended, refused]).orderBy('id').select('id', 'status', 'impressionsDelivered', 'reach', 'clicks', 'metricsUpdatedAt');
    expect(rows.map(({ metricsUpdatedAt, ...r }: { metricsUpdatedAt: Date | null }) => ({ ...r, synced: metricsUpdatedAt instanceof Date }))).toEqual([
      { id: running, status: 'active', impressionsDelivered: 4200, reach: 2800, clicks: 51, synced: true },
      { id: ended, status: 'completed', impressionsDelivered: 5003, reach: 3300, clicks: 60, synced: true },
      { id: refused, status: 'active', impressionsDelivered: 0, reach: 0, clicks: 0, synced: false },
    ]);
    expect(await t.db('campaignTransitions').where({ campaignId: ended }).orderBy('id', 'desc').first('fromStatus', 'toStatus')).toEqual({ fromStatus: 'active', toStatus: 'completed' });
    await t.db('campaigns').whereIn('id', [running, refused]).update({ status: 'canceled' });
  });

  it('a rate-limited pass leaves an ended campaign active until a sync after its end has its final numbers', async () => {
    const now = Date.now();
    const ended = await activeCampaign('9101', { startsAt: new Date(now - 10 * 24 * HOUR), endsAt: new Date(now - HOUR) });
    nock('https://graph.facebook.com').get('/v26.0/9101/insights').query(true).reply(400, graphError(17, 'User request limit reached'));
    expect((await sync()).completed).toEqual([]);
    expect((await t.db('campaigns').where({ id: ended }).first()).status).toBe('active');

    nock('https://graph.facebook.com').get('/v26.0/9101/insights').query(true).reply(200, { data: [{ impressions: '5000', reach: '3100', clicks: '55' }] });
    expect((await sync()).completed).toEqual([ended]);
  });

  it('a launch left without a job (its last attempt died with its process) becomes launch_failed, visibly', async () => {
    const { campaignId: stuck } = await insertDraftCampaign(t.db, { status: 'launching', statusChangedAt: new Date(Date.now() - 20 * 60_000) });
    const { campaignId: recent } = await insertDraftCampaign(t.db, { status: 'launching', statusChangedAt: new Date() });
    const { campaignId: queued } = await insertDraftCampaign(t.db, { status: 'launching', statusChangedAt: new Date(Date.now() - 20 * 60_000) });
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

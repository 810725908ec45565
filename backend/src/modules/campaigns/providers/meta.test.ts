import nock from 'nock';
import { createLogger } from '../../../platform/logger';
import { graphError } from '../testing/meta-graph-shapes';
import { AdPlatformError } from './ad-platform';
import { MetaAdPlatform, metaError, parseBusinessUseCaseUsage } from './meta';

const meta = () =>
  new MetaAdPlatform({
    graphUrl: 'https://graph.facebook.com',
    version: 'v26.0',
    accessToken: 'tok',
    adAccountId: '1234',
    pageId: '5555',
    selfOrigin: 'https://app.example.com',
    timeoutMs: 5000,
    logger: createLogger('silent'),
  });

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
});
afterEach(() => nock.cleanAll());

describe('Meta error mapping', () => {
  const kind = (status: number, body: Record<string, any>) => metaError(status, body.error, JSON.stringify(body)).transient;

  it('retries rate limits, Meta transient codes and 5xx; not invalid parameters or other 4xx', () => {
    for (const code of [4, 17, 32, 613, 80004]) expect(kind(400, graphError(code, 'limit'))).toBe(true);
    expect(kind(500, graphError(1, 'An unknown error occurred'))).toBe(true);
    expect(kind(503, graphError(2, 'Service temporarily unavailable'))).toBe(true);
    expect(kind(400, graphError(100, 'Invalid parameter', { is_transient: true }))).toBe(true);
    expect(kind(400, graphError(100, 'Invalid parameter'))).toBe(false);
    expect(kind(400, graphError(190, 'Invalid OAuth access token.'))).toBe(false);
    expect(kind(403, graphError(200, 'Permissions error'))).toBe(false);
    expect(metaError(502, undefined, '<html>Bad gateway</html>').transient).toBe(true);
    expect(metaError(404, undefined, '').transient).toBe(false);
  });

  it('says what Meta said, with the code and trace id', () => {
    const e = metaError(400, (graphError(100, 'Invalid parameter') as any).error, '');
    expect(e.message).toBe('Meta: Invalid parameter (code 100, fbtrace_id AbCdEfGh123)');
    const e2 = metaError(400, (graphError(100, 'Invalid parameter', { error_subcode: 1487534, error_user_msg: 'Radius too small.' }) as any).error, '');
    expect(e2.message).toBe('Meta: Invalid parameter — Radius too small. (code 100/1487534, fbtrace_id AbCdEfGh123)');
    expect(e2.details).toEqual({ status: 400, code: 100, subcode: 1487534, fbtraceId: 'AbCdEfGh123' });
  });
});

const usage = (callCount: number, regainMinutes = 0) =>
  JSON.stringify({ '1234567890': [{ type: 'ads_insights', call_count: callCount, total_cputime: Math.max(1, callCount - 5), total_time: Math.max(1, callCount - 5), estimated_time_to_regain_access: regainMinutes }] });

describe('Meta delivery (insights)', () => {
  const since = new Date('2026-11-01T15:00:00Z');
  const daily = (id: string, day: string, impressions: number) => ({
    campaign_id: id, date_start: day, date_stop: day, impressions: String(impressions), reach: String(Math.round(impressions * 0.8)),
    clicks: String(Math.round(impressions / 100)), inline_link_clicks: String(Math.round(impressions / 125)), ctr: '1.01', frequency: '1.25', spend: '12.34',
  });

  it('reads daily rows (time_increment=1, every page) and lifetime figures (date_preset=maximum) at the account, filtered by campaign', async () => {
    const filtering = JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: ['111', '222'] }]);
    const scope = nock('https://graph.facebook.com', { reqheaders: { authorization: 'Bearer tok' } })
      .get('/v26.0/act_1234/insights')
      .query((q) => q.time_increment === '1' && q.level === 'campaign' && q.filtering === filtering && !q.after && JSON.parse(String(q.time_range)).since === '2026-11-01')
      .reply(200, { data: [daily('111', '2026-11-01', 1000), daily('111', '2026-11-02', 1200)], paging: { cursors: { before: 'A', after: 'CURSOR1' }, next: 'https://graph.facebook.com/v26.0/act_1234/insights?after=CURSOR1' } }, { 'x-business-use-case-usage': usage(10) })
      .get('/v26.0/act_1234/insights')
      .query((q) => q.time_increment === '1' && q.after === 'CURSOR1')
      .reply(200, { data: [daily('222', '2026-11-02', 300)], paging: { cursors: { before: 'B', after: 'CURSOR2' } } }, { 'x-business-use-case-usage': usage(12) })
      .get('/v26.0/act_1234/insights')
      .query((q) => q.date_preset === 'maximum' && q.level === 'campaign' && q.filtering === filtering && q.fields === 'campaign_id,impressions,reach,clicks,inline_link_clicks,frequency,spend')
      .reply(200, { data: [{ campaign_id: '111', impressions: '2200', reach: '1500', clicks: '22', inline_link_clicks: '18', frequency: '1.4667', spend: '24.68' }, { campaign_id: '222', impressions: '300', reach: '240', clicks: '3', inline_link_clicks: '2', spend: '3.1' }] });
    const result = await meta().getInsights([{ platformCampaignId: '111', since }, { platformCampaignId: '222', since: new Date('2026-11-02T00:00:00Z') }]);
    expect(scope.isDone()).toBe(true);
    expect(result.calls).toBe(3);
    expect(result.usagePercent).toBe(12);
    expect(result.backOffSeconds).toBeUndefined();
    expect(result.campaigns.get('111')).toEqual({
      lifetime: { impressions: 2200, reach: 1500, clicks: 22, linkClicks: 18, spendCents: 2468 },
      days: [
        { day: '2026-11-01', impressions: 1000, reach: 800, clicks: 10, linkClicks: 8, spendCents: 1234, ctr: 1.01, frequency: 1.25 },
        { day: '2026-11-02', impressions: 1200, reach: 960, clicks: 12, linkClicks: 10, spendCents: 1234, ctr: 1.01, frequency: 1.25 },
      ],
    });
    expect(result.campaigns.get('222')!.days.map((d) => d.impressions)).toEqual([300]);
    expect(result.campaigns.get('222')!.lifetime.spendCents).toBe(310);
  });

  it('stops calling once x-business-use-case-usage nears 100 %, and says how long to wait', async () => {
    const scope = nock('https://graph.facebook.com')
      .get('/v26.0/act_1234/insights')
      .query((q) => q.time_increment === '1')
      .reply(200, { data: [daily('111', '2026-11-01', 1000)], paging: { cursors: { after: 'C1' }, next: 'https://graph.facebook.com/next' } }, { 'x-business-use-case-usage': usage(93, 12) });
    const result = await meta().getInsights([{ platformCampaignId: '111', since }]);
    expect(scope.isDone()).toBe(true);
    expect(result.calls).toBe(1);
    expect(result.usagePercent).toBe(93);
    expect(result.backOffSeconds).toBe(12 * 60);
    // Nothing half-read is reported: the group's lifetime figures were not read.
    expect(result.campaigns.size).toBe(0);
  });

  it('a throttling error ends the read with a back-off of at least 5 minutes', async () => {
    nock('https://graph.facebook.com').get('/v26.0/act_1234/insights').query(true).reply(400, graphError(80000, 'There have been too many calls from this ad-account.'));
    const result = await meta().getInsights([{ platformCampaignId: '111', since }]);
    expect(result.backOffSeconds).toBe(300);
    expect(result.campaigns.size).toBe(0);
  });

  it('parses the usage header (the highest figure of any use case) and ignores a malformed one', () => {
    expect(parseBusinessUseCaseUsage(usage(40, 3))).toEqual({ percent: 40, regainSeconds: 180 });
    expect(parseBusinessUseCaseUsage('{"1":[{"type":"ads_management","call_count":5,"total_time":97}]}')).toEqual({ percent: 97, regainSeconds: 0 });
    expect(parseBusinessUseCaseUsage('not json')).toBeUndefined();
    expect(parseBusinessUseCaseUsage(null)).toBeUndefined();
  });

  it('stops a campaign with POST /{campaign-id} status=PAUSED', async () => {
    const scope = nock('https://graph.facebook.com').post('/v26.0/111', { status: 'PAUSED' }).reply(200, { success: true });
    await meta().stop('111');
    expect(scope.isDone()).toBe(true);
  });

  it('a network failure is transient', async () => {
    nock('https://graph.facebook.com').post('/v26.0/act_1234/campaigns').replyWithError('socket hang up');
    const err = await meta()
      .createCampaign({ name: 'LA#1', specialAdCategories: ['HOUSING'], country: 'US', impressionsGoal: 5000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdPlatformError);
    expect((err as AdPlatformError).transient).toBe(true);
  });

  it('a creative without a Page is refused before any call', async () => {
    const m = new MetaAdPlatform({ ...(meta() as any).o, pageId: undefined });
    await expect(m.createCreative({ name: 'x', format: 'single', headline: 'h', primaryText: 'p', description: '', link: 'https://a.example', callToAction: 'LEARN_MORE', images: ['/demo-mls/photos/exterior-01.jpg'] })).rejects.toThrow(
      'META_PAGE_ID is not configured',
    );
  });
});

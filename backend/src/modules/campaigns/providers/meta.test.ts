import nock from 'nock';
import { createLogger } from '../../../platform/logger';
import { graphError } from '../testing/meta-graph-shapes';
import { AdPlatformError } from './ad-platform';
import { MetaAdPlatform, metaError } from './meta';

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

describe('Meta delivery (insights)', () => {
  it('reads lifetime impressions, reach and clicks per campaign; skips one Meta refuses; no data is zero', async () => {
    const scope = nock('https://graph.facebook.com', { reqheaders: { authorization: 'Bearer tok' } })
      .get('/v26.0/111/insights')
      .query({ fields: 'impressions,reach,clicks', date_preset: 'maximum' })
      .reply(200, { data: [{ impressions: '1234', reach: '800', clicks: '15', date_start: '2026-11-01', date_stop: '2026-11-20' }], paging: { cursors: {} } })
      .get('/v26.0/222/insights')
      .query(true)
      .reply(200, { data: [] })
      .get('/v26.0/333/insights')
      .query(true)
      .reply(400, graphError(100, 'Unsupported get request. Object with ID 333 does not exist', { error_subcode: 33 }));
    const delivery = await meta().getDelivery(['111', '222', '333']);
    expect(Object.fromEntries(delivery)).toEqual({ '111': { impressions: 1234, reach: 800, clicks: 15 }, '222': { impressions: 0, reach: 0, clicks: 0 } });
    expect(scope.isDone()).toBe(true);
  });

  it('a rate limit on insights stops the pass (the next minute retries)', async () => {
    nock('https://graph.facebook.com').get('/v26.0/111/insights').query(true).reply(400, graphError(80004, 'There have been too many calls to this ad-account.'));
    await expect(meta().getDelivery(['111'])).rejects.toBeInstanceOf(AdPlatformError);
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

describe('Meta pause and resume', () => {
  it('POSTs status=PAUSED, then status=ACTIVE, to the campaign (Meta answers {success: true})', async () => {
    const scope = nock('https://graph.facebook.com', { reqheaders: { authorization: 'Bearer tok' } })
      .post('/v26.0/120210000000001', (body) => body.status === 'PAUSED')
      .reply(200, { success: true })
      .post('/v26.0/120210000000001', (body) => body.status === 'ACTIVE')
      .reply(200, { success: true });
    await meta().pauseCampaign('120210000000001');
    await meta().resumeCampaign('120210000000001');
    expect(scope.isDone()).toBe(true);
  });

  it('a refusal is a clean error, retried only when Meta says it is transient', async () => {
    nock('https://graph.facebook.com').post('/v26.0/999').reply(400, graphError(100, 'Unsupported post request. Object with ID 999 does not exist', { error_subcode: 33 }));
    const refused = await meta().pauseCampaign('999').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AdPlatformError);
    expect((refused as AdPlatformError).transient).toBe(false);
    nock('https://graph.facebook.com').post('/v26.0/998').reply(400, graphError(17, 'User request limit reached'));
    expect(((await meta().pauseCampaign('998').catch((e: unknown) => e)) as AdPlatformError).transient).toBe(true);
    nock('https://graph.facebook.com').post('/v26.0/997').reply(200, { success: false });
    await expect(meta().resumeCampaign('997')).rejects.toThrow(/did not confirm/);
  });
});

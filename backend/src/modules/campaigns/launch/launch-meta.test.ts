import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import nock from 'nock';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { launchJobCount } from '../../../../test/jobs';
import { redrive } from '../../../platform/jobs/ops';
import { markCampaignPaid } from '..';
import { defineLaunchJob, LAUNCH_QUEUE_OPTIONS } from '../jobs/launch-campaign.job';
import { DEMO_PHOTOS_DIR } from '../providers/image-source';
import { launchNames } from './launch-plan';
import { insertListingWithDraftCampaign, waitFor } from '../../../../test/factories';
import { deepKeys, graphError, interestSearchBody, META_TEST_ENV } from '../testing/meta-graph-shapes';
import { mockGraph, type GraphHandler } from '../testing/meta-nock';

// Short retry delays so the retry paths finish in seconds; the handler is the production one.
const { retryDelayMax: _max, ...fastRetries } = LAUNCH_QUEUE_OPTIONS;
const launchJob = defineLaunchJob({ ...fastRetries, retryLimit: 2, retryDelay: 0, retryBackoff: false });

let t: TestContext;
/** The wizard's image, an absolute URL (as an MLS photo would be), served on loopback (OUTBOUND_ALLOW_LOOPBACK in tests). */
let photos: http.Server;
let photoUrl: string;
const PHOTO = Buffer.from('fake-jpeg-bytes');
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  photos = http.createServer((req, res) => {
    res.writeHead(req.url === '/1.jpg' ? 200 : 404, { 'content-type': 'image/jpeg' });
    res.end(req.url === '/1.jpg' ? PHOTO : undefined);
  });
  await new Promise<void>((r) => photos.listen(0, '127.0.0.1', r));
  photoUrl = `http://127.0.0.1:${(photos.address() as AddressInfo).port}/1.jpg`;
  t = await createTestContext({ work: true, jobs: [launchJob], env: META_TEST_ENV });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => photos.close(r));
});
afterEach(() => nock.cleanAll());

const campaign = (id: number) => t.db('campaigns').where({ id }).first();
const pay = (id: number) => t.db.transaction((trx) => markCampaignPaid(trx, t.queue, id, 'test payment'));
const statusIs = (id: number, ...statuses: string[]) => async () => {
  const c = await campaign(id);
  return statuses.includes(c.status) ? c : null;
};
const jobsSettled = (id: number) => async () => (await launchJobCount(t.db, id, { open: true })) === 0;

type Session = ReturnType<TestContext['newSession']>;
/** A campaign made through the wizard's API, so its owner's session can read it back. */
async function wizardCampaign(extra: Record<string, unknown> = {}): Promise<{ session: Session; id: number }> {
  const session = t.newSession();
  const { body: agent } = await session.post('/api/agents').send({ name: 'Dana Whitfield', state: 'FL', manualEntry: true }).expect(201);
  const { body: listing } = await session
    .post('/api/listings')
    .send({ agentId: agent.id, address: '12 Palm Ave', city: 'Tampa', state: 'FL', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1850, status: 'active', images: [photoUrl] })
    .expect(201);
  const { body } = await session
    .post('/api/campaigns')
    .send({ agentId: agent.id, listingId: listing.id, templateType: 'just-listed', headline: 'Amazing Property in Tampa', description: 'Sunny 3-bed home.', price: '299', imageUrl: photoUrl, link: 'https://agent.example.com/l/12', ...extra })
    .expect(201);
  return { session, id: body.id };
}

describe('launch on Meta (Graph API, nock)', () => {
  it('creates campaign, ad set, image, creative and ad with the documented housing parameters', async () => {
    const graph = mockGraph();
    const { campaignId, mlsId } = await insertListingWithDraftCampaign(t.db);
    await pay(campaignId);
    const c = await waitFor('active', statusIs(campaignId, 'active', 'launch_failed'));
    expect([c.status, c.launchError]).toEqual(['active', null]);

    // One of each, in order; the token only ever in the Authorization header.
    expect(Object.fromEntries(Object.entries(graph.posts).map(([k, v]) => [k, v.length]))).toEqual({ campaigns: 1, adsets: 1, adimages: 1, adcreatives: 1, ads: 1 });
    expect(new Set(graph.auth)).toEqual(new Set(['Bearer test-meta-token']));
    expect(graph.urls.filter((u) => u.includes('test-meta-token'))).toEqual([]);

    const names = launchNames({ id: campaignId, templateType: 'just-listed', mlsListingId: mlsId }, META_TEST_ENV.PUBLIC_URL);
    expect(graph.posts.campaigns[0]).toEqual({
      name: names.campaign,
      objective: 'OUTCOME_AWARENESS',
      status: 'ACTIVE',
      special_ad_categories: ['HOUSING'],
      special_ad_category_country: ['US'],
      buying_type: 'AUCTION',
      is_adset_budget_sharing_enabled: 'false',
    });
    expect(names.campaign).toBe(`LA#${campaignId} · Just Listed · ${mlsId} · app.example.com`);

    const adSet = graph.posts.adsets[0];
    expect(adSet).toMatchObject({
      name: names.adSet,
      campaign_id: graph.id('campaigns', 1),
      daily_budget: String(Math.floor(29900 / 14)), // cents: $299 over the 14-day upper bound of 10-14 days
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'IMPRESSIONS',
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
      status: 'ACTIVE',
    });
    expect(new Date(adSet.end_time).getTime() - new Date(adSet.start_time).getTime()).toBe(14 * 86400_000);
    expect(new Date(adSet.start_time).getTime()).toBe(c.startsAt.getTime());
    expect(adSet.targeting).toEqual({
      geo_locations: { custom_locations: [{ latitude: 27.9506, longitude: -82.4572, radius: 25, distance_unit: 'mile' }] },
      flexible_spec: [{ interests: [interestSearchBody('Real estate').data, interestSearchBody('Zillow').data].map((d) => ({ id: (d as any)[0].id, name: (d as any)[0].name })) }],
      targeting_automation: { advantage_audience: 0 },
    });
    // Housing: no age, gender or ZIP targeting anywhere in the ad set.
    expect(deepKeys(adSet).filter((k) => /^(age|gender|zip|postal)/i.test(k))).toEqual([]);

    expect(graph.posts.adimages[0].bytes).toBe(fs.readFileSync(path.join(DEMO_PHOTOS_DIR, 'exterior-01.jpg')).toString('base64'));
    expect(graph.posts.adcreatives[0]).toEqual({
      name: names.creative,
      object_story_spec: {
        page_id: '5555',
        link_data: {
          link: `https://app.example.com/listing/${mlsId}`,
          message: 'Sunny 3-bed home with a pool. Schedule a tour today.',
          name: 'Amazing Property in Tampa',
          // The advertiser as the preview shows it: several states require the brokerage in the ad.
          description: 'Dana Whitfield · Gulf Coast Realty — Looking to buy, rent or sell?',
          image_hash: `imghash${graph.seq(1)}`,
          call_to_action: { type: 'LEARN_MORE', value: { link: `https://app.example.com/listing/${mlsId}` } },
        },
      },
    });
    expect(graph.posts.ads[0]).toEqual({ name: names.ad, adset_id: graph.id('adsets', 1), creative: { creative_id: graph.id('adcreatives', 1) }, status: 'ACTIVE' });

    expect(c.facebookCampaignId).toBe(graph.id('campaigns', 1));
    const row = await t.db('adSets').where({ campaignId }).first();
    expect(row).toMatchObject({ facebookAdSetId: graph.id('adsets', 1), status: 'active', dailyBudget: 2135 });
    expect(await t.db('ads').where({ adSetId: row.id }).first()).toMatchObject({ facebookAdId: graph.id('ads', 1), creativeId: graph.id('adcreatives', 1), status: 'active' });
  });

  it('a carousel sends one image upload per card and 2–10 child_attachments', async () => {
    const graph = mockGraph();
    const images = ['exterior-01.jpg', 'kitchen-01.jpg', 'backyard-01.jpg'].map((f) => `/demo-mls/photos/${f}`);
    const { campaignId } = await insertListingWithDraftCampaign(t.db, { adFormat: 'carousel', carouselImages: JSON.stringify(images) });
    await pay(campaignId);
    const c = await waitFor('settled', statusIs(campaignId, 'active', 'launch_failed'));
    expect([c.status, c.launchError]).toEqual(['active', null]);
    // Uploads run in parallel: match each card's hash to the bytes uploaded under it.
    const bytesOf = (u: string) => fs.readFileSync(path.join(DEMO_PHOTOS_DIR, path.basename(u))).toString('base64');
    expect(graph.posts.adimages.map((b) => b.bytes).sort()).toEqual(images.map(bytesOf).sort());
    const uploadedUnder = new Map(graph.posts.adimages.map((b, i) => [`imghash${graph.seq(i + 1)}`, b.bytes as string]));
    const linkData = graph.posts.adcreatives[0].object_story_spec.link_data;
    expect(linkData.image_hash).toBeUndefined();
    expect(linkData.child_attachments).toHaveLength(3);
    expect(linkData.child_attachments.map((a: { image_hash: string }) => uploadedUnder.get(a.image_hash))).toEqual(images.map(bytesOf));
    for (const card of linkData.child_attachments) expect(card).toMatchObject({ link: linkData.link, name: 'Amazing Property in Tampa', call_to_action: { type: 'LEARN_MORE' } });
  });

  it('a carousel of 10 photos sends all 10 as child_attachments, in order, each with its own uploaded image', async () => {
    const graph = mockGraph();
    const files = ['exterior', 'kitchen', 'backyard', 'bath', 'bedroom'].flatMap((room) => [`${room}-01.jpg`, `${room}-02.jpg`]);
    const images = files.map((f) => `/demo-mls/photos/${f}`);
    const { campaignId } = await insertListingWithDraftCampaign(t.db, { adFormat: 'carousel', carouselImages: JSON.stringify(images) });
    await pay(campaignId);
    const c = await waitFor('settled', statusIs(campaignId, 'active', 'launch_failed'));
    expect([c.status, c.launchError]).toEqual(['active', null]);
    const bytesOf = (u: string) => fs.readFileSync(path.join(DEMO_PHOTOS_DIR, path.basename(u))).toString('base64');
    expect(graph.posts.adimages).toHaveLength(10);
    const uploadedUnder = new Map(graph.posts.adimages.map((b, i) => [`imghash${graph.seq(i + 1)}`, b.bytes as string]));
    const linkData = graph.posts.adcreatives[0].object_story_spec.link_data;
    expect(linkData.child_attachments).toHaveLength(10);
    expect(new Set(linkData.child_attachments.map((a: { image_hash: string }) => a.image_hash)).size).toBe(10);
    expect(linkData.child_attachments.map((a: { image_hash: string }) => uploadedUnder.get(a.image_hash))).toEqual(images.map(bytesOf));
    for (const card of linkData.child_attachments) {
      expect(card).toEqual({
        link: linkData.link,
        image_hash: expect.any(String),
        name: 'Amazing Property in Tampa',
        description: 'Dana Whitfield · Gulf Coast Realty — Looking to buy, rent or sell?',
        call_to_action: { type: 'LEARN_MORE', value: { link: linkData.link } },
      });
    }
  });

  it('makes the creative in the same attempt as the campaign, not after it: a failed campaign call still leaves it recorded, and the retry reuses it', async () => {
    const graph = mockGraph({
      campaigns: (_b, n) => (n === 1 ? [500, graphError(2, 'Service temporarily unavailable', { is_transient: true })] : [200, { id: `par-${n}` }]),
    });
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    await pay(campaignId);
    const c = await waitFor('settled', statusIs(campaignId, 'active', 'launch_failed'));
    expect([c.status, c.launchAttempts]).toEqual(['active', 2]);
    // Sequentially the first attempt would have stopped at the campaign: no upload, no creative.
    expect(graph.posts.campaigns).toHaveLength(2);
    expect(graph.posts.adimages).toHaveLength(1);
    expect(graph.posts.adcreatives).toHaveLength(1);
    const adSet = await t.db('adSets').where({ campaignId }).first();
    expect(await t.db('ads').where({ adSetId: adSet.id }).first()).toMatchObject({ creativeId: graph.id('adcreatives', 1), facebookAdId: graph.id('ads', 1) });
    expect(graph.posts.ads[0].creative).toEqual({ creative_id: graph.id('adcreatives', 1) });
  });

  it('a rate limit (code 17) is retried, then the launch succeeds with one Meta campaign', async () => {
    const graph = mockGraph({
      campaigns: (_b, n) => (n === 1 ? [400, graphError(17, 'User request limit reached', { error_subcode: 2446079, is_transient: true })] : [200, { id: `rl-${n}` }]),
    });
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    await pay(campaignId);
    const c = await waitFor('settled', statusIs(campaignId, 'active', 'launch_failed'));
    expect(c.status).toBe('active');
    expect(c.launchAttempts).toBe(2);
    expect(c.launchError).toBeNull();
    expect(graph.posts.campaigns).toHaveLength(2); // the refused one and the one that worked
    expect(c.facebookCampaignId).toBe('rl-2');
    const moves = await t.db('campaignTransitions').where({ campaignId }).orderBy('id').select('toStatus').then((rows: { toStatus: string }[]) => rows.map((r) => r.toStatus));
    expect(moves).toEqual(['draft', 'paid', 'launching', 'active']);
  });

  it('an invalid parameter (code 100) fails the launch at once, visibly; ops redrive it and it launches without a second campaign', async () => {
    let adSetAnswer: GraphHandler = () => [400, graphError(100, 'Invalid parameter', { error_subcode: 1487534, error_user_msg: 'The daily budget is too low.' })];
    const graph = mockGraph({ adsets: (b, n) => adSetAnswer(b, n) });
    const { session, id } = await wizardCampaign();
    await pay(id);
    const c = await waitFor('launch_failed', statusIs(id, 'launch_failed', 'active'));
    expect(c.status).toBe('launch_failed');
    expect(graph.posts.adsets).toHaveLength(1); // not retried
    expect(c.launchAttempts).toBe(1);
    expect(c.launchError).toBe('Meta: Invalid parameter — The daily budget is too low. (code 100/1487534, fbtrace_id AbCdEfGh123)');

    const { body } = await session.get(`/api/campaigns/${id}`).expect(200);
    expect(body).toMatchObject({ status: 'launch_failed', launchError: c.launchError, facebookCampaignId: graph.id('campaigns', 1) });
    expect(await launchJobCount(t.db, id, { queue: 'campaigns.launch.dead' })).toBe(1);

    // Ops fix the cause and redrive the dead-letter queue: the launch resumes after the recorded campaign.
    adSetAnswer = (_b, n) => [200, { id: `redriven-${n}` }];
    expect(await redrive(t.db, t.queue.boss, 'campaigns.launch.dead')).toEqual({ moved: 1 });
    const after = await waitFor('active', statusIs(id, 'active'));
    expect(after.launchError).toBeNull();
    expect(graph.posts.campaigns).toHaveLength(1);
    expect(graph.posts.adimages[0].bytes).toBe(PHOTO.toString('base64'));
    const moves = await t.db('campaignTransitions').where({ campaignId: id }).orderBy('id').select('toStatus').then((rows: { toStatus: string }[]) => rows.map((r) => r.toStatus));
    expect(moves).toEqual(['draft', 'paid', 'launching', 'launch_failed', 'launching', 'active']);
    expect((await session.get(`/api/campaigns/${id}`).expect(200)).body).toMatchObject({ status: 'active', launchError: null });
  });

  it('a 5xx is retried with the reason visible, then after the last retry the launch is launch_failed', async () => {
    const graph = mockGraph({ ads: () => [500, graphError(2, 'Service temporarily unavailable', { is_transient: true })] });
    const { session, id } = await wizardCampaign();
    await pay(id);
    // Between attempts: still launching, with the last reason visible to the agent.
    const retrying = await waitFor('a retry pending', async () => {
      const { body } = await session.get(`/api/campaigns/${id}`).expect(200);
      return body.status === 'launching' && body.launchError ? body : null;
    });
    expect(retrying.launchError).toBe('Meta: Service temporarily unavailable (code 2, fbtrace_id AbCdEfGh123) (retrying)');
    const c = await waitFor('launch_failed', statusIs(id, 'launch_failed', 'active'), 30000);
    expect(c.status).toBe('launch_failed');
    expect(graph.posts.ads).toHaveLength(3); // retryLimit 2: three attempts
    // Everything before the ad was recorded once and reused by the retries.
    expect([graph.posts.campaigns.length, graph.posts.adsets.length, graph.posts.adcreatives.length]).toEqual([1, 1, 1]);
    expect(c.launchAttempts).toBe(3);
    expect(c.launchError).toBe('Meta: Service temporarily unavailable (code 2, fbtrace_id AbCdEfGh123) (gave up after 3 attempts)');
    expect((await session.get(`/api/campaigns/${id}`).expect(200)).body).toMatchObject({ status: 'launch_failed', launchError: c.launchError });
    await waitFor('jobs settled', jobsSettled(id));
    expect(await launchJobCount(t.db, id, { queue: 'campaigns.launch.dead' })).toBe(1);
  });

  it('a retry finds by name what an attempt created before it crashed, instead of creating it again', async () => {
    // An earlier attempt died after Meta created the campaign and the ad set, before we wrote their ids.
    const { campaignId, mlsId } = await insertListingWithDraftCampaign(t.db, { launchAttempts: 1 });
    const names = launchNames({ id: campaignId, templateType: 'just-listed', mlsListingId: mlsId }, META_TEST_ENV.PUBLIC_URL);
    const graph = mockGraph(
      {},
      {
        campaigns: [{ id: '777', name: names.campaign }],
        adsets: [{ id: '888', name: names.adSet, campaign_id: '777' }],
      },
    );
    await pay(campaignId);
    const c = await waitFor('settled', statusIs(campaignId, 'active', 'launch_failed'));
    expect(c.status).toBe('active');
    expect(c.facebookCampaignId).toBe('777');
    expect(graph.posts.campaigns).toHaveLength(0);
    expect(graph.posts.adsets).toHaveLength(0);
    expect(graph.posts.ads).toHaveLength(1);
    expect((await t.db('adSets').where({ campaignId }).first()).facebookAdSetId).toBe('888');
  });
});

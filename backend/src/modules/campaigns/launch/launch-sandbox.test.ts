import { createTestContext, type TestContext } from '../../../../test/helpers';
import { launchJobCount } from '../../../../test/jobs';
import { markCampaignPaid, launchCampaignJob, syncMetricsJob } from '..';
import { SandboxAdPlatform } from '../providers/sandbox';
import { syncCampaignMetrics } from '../metrics/sync-metrics';
import { createLogger } from '../../../platform/logger';
import { insertListingWithDraftCampaign, waitFor } from '../../../../test/factories';
import { registry } from '../../../platform/metrics';

async function metricValues(name: string) {
  return (await registry.getSingleMetric(name)!.get()).values;
}

let t: TestContext;
beforeAll(async () => {
  // The sandbox is the default: no META_* configured.
  t = await createTestContext({ work: true, jobs: [launchCampaignJob] });
});
afterAll(() => t.close());

const campaign = (id: number) => t.db('campaigns').where({ id }).first();
const pay = (id: number) => t.db.transaction((trx) => markCampaignPaid(trx, t.queue, id, 'test payment'));

describe('launch on the sandbox ad platform', () => {
  it('paid → launching → active, with sandbox ids recorded at every level', async () => {
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    const launchesBefore = (await metricValues('listing_ads_campaign_launch_attempts_total')).find((v) => v.labels.outcome === 'active')?.value ?? 0;
    expect(await pay(campaignId)).toEqual({ moved: true, status: 'paid' });

    const c = await waitFor('active', async () => ((await campaign(campaignId)).status === 'active' ? campaign(campaignId) : null));
    expect(c.facebookCampaignId).toMatch(/^sbx_cmp_[0-9a-f]{16}$/);
    expect(c.launchError).toBeNull();
    expect(c.launchAttempts).toBe(1);
    // 15000 impressions → 10-14 days: the ad set runs 14 days from launch.
    expect(c.endsAt.getTime() - c.startsAt.getTime()).toBe(14 * 86400_000);
    expect(Math.abs(c.startsAt.getTime() - Date.now())).toBeLessThan(60_000);

    const adSet = await t.db('adSets').where({ campaignId }).first();
    expect(adSet).toMatchObject({ facebookAdSetId: expect.stringMatching(/^sbx_adset_/), status: 'active', dailyBudget: Math.floor(29900 / 14) });
    const ad = await t.db('ads').where({ adSetId: adSet.id }).first();
    expect(ad).toMatchObject({
      facebookAdId: expect.stringMatching(/^sbx_ad_/),
      creativeId: expect.stringMatching(/^sbx_cre_/),
      status: 'active',
      headline: 'Amazing Property in Tampa',
      imageUrl: '/demo-mls/photos/exterior-01.jpg',
    });

    const sbx = await t.db('sandboxAdCampaigns').where({ id: c.facebookCampaignId }).first();
    expect(sbx).toMatchObject({
      objective: 'OUTCOME_AWARENESS',
      specialAdCategories: ['HOUSING'],
      impressionsGoal: 15000,
      adSetId: adSet.facebookAdSetId,
      adId: ad.facebookAdId,
      creativeId: ad.creativeId,
      dailyBudgetCents: adSet.dailyBudget,
    });
    expect(sbx.name).toMatch(new RegExp(`^LA#${campaignId} · Just Listed · `));

    const moves = await t.db('campaignTransitions').where({ campaignId }).orderBy('id').select('fromStatus', 'toStatus');
    expect(moves).toEqual([
      { fromStatus: null, toStatus: 'draft' },
      { fromStatus: 'draft', toStatus: 'paid' },
      { fromStatus: 'paid', toStatus: 'launching' },
      { fromStatus: 'launching', toStatus: 'active' },
    ]);

    // The metrics: one launch more, made active, and its latency from the payment observed.
    const launches = await metricValues('listing_ads_campaign_launch_attempts_total');
    expect(launches.find((v) => v.labels.provider === 'sandbox' && v.labels.outcome === 'active')?.value).toBe(launchesBefore + 1);
    const latency = await metricValues('listing_ads_campaign_launch_seconds');
    const count = latency.find((v) => (v as { metricName?: string }).metricName === 'listing_ads_campaign_launch_seconds_count' && v.labels.provider === 'sandbox');
    expect(count?.value).toBeGreaterThanOrEqual(1);
  });

  it('records the creative with every card: a carousel of 10 keeps all 10 images, in order', async () => {
    const images = Array.from({ length: 10 }, (_, i) => `/demo-mls/photos/bedroom-0${(i % 6) + 1}.jpg?card=${i + 1}`);
    const { campaignId } = await insertListingWithDraftCampaign(t.db, { adFormat: 'carousel', carouselImages: JSON.stringify(images) });
    await pay(campaignId);
    const c = await waitFor('active', async () => ((await campaign(campaignId)).status === 'active' ? campaign(campaignId) : null));
    const sbx = await t.db('sandboxAdCampaigns').where({ id: c.facebookCampaignId }).first();
    const creative = await t.db('sandboxAdCreatives').where({ id: sbx.creativeId }).first();
    expect(creative).toMatchObject({
      format: 'carousel',
      headline: 'Amazing Property in Tampa',
      description: 'Dana Whitfield · Gulf Coast Realty — Looking to buy, rent or sell?',
      callToAction: 'LEARN_MORE',
    });
    expect(creative.primaryText.length).toBeGreaterThan(0);
    expect(creative.cards.map((card: { imageUrl: string }) => card.imageUrl)).toEqual(images);
    for (const card of creative.cards) expect(card).toMatchObject({ headline: 'Amazing Property in Tampa', link: creative.link });
  });

  it('a second payment confirmation neither moves the campaign nor sends another launch', async () => {
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    await pay(campaignId);
    await waitFor('active', async () => (await campaign(campaignId)).status === 'active');
    expect(await pay(campaignId)).toEqual({ moved: false, status: 'active' });
    expect(await launchJobCount(t.db, campaignId)).toBe(1);
  });

  it('delivery accrues over the flight as the (injected) clock moves; the goal reached, the campaign is stopped and completed', async () => {
    const { campaignId } = await insertListingWithDraftCampaign(t.db, { budgetCents: 9900, impressionsRequested: 5000 });
    await pay(campaignId);
    const c = await waitFor('active', async () => ((await campaign(campaignId)).status === 'active' ? campaign(campaignId) : null));
    const start = c.startsAt.getTime();
    const span = c.endsAt.getTime() - start;
    let now = new Date(start);
    const sandbox = new SandboxAdPlatform(t.db, () => now, { timeScale: 1, underdeliveryRate: 0 });
    const sync = () =>
      syncCampaignMetrics({ db: t.db, config: t.config, logger: createLogger('silent'), force: true, platformFor: (id) => (id.startsWith('sbx_') ? sandbox : undefined) });

    const seen: { impressions: number; reach: number; clicks: number; status: string }[] = [];
    for (const f of [0, 0.05, 0.25, 0.5, 0.75, 1]) {
      now = new Date(start + span * f);
      await sync();
      const row = await campaign(campaignId);
      expect(row.metricsUpdatedAt).toBeInstanceOf(Date);
      seen.push({ impressions: row.impressionsDelivered, reach: row.reach, clicks: row.clicks, status: row.status });
    }
    expect(seen[0]).toMatchObject({ impressions: 0, reach: 0, clicks: 0 });
    for (let i = 1; i < seen.length; i++) expect(seen[i].impressions).toBeGreaterThan(seen[i - 1].impressions);
    // A slow start: the first 5 % of the time delivers less than 5 % of the impressions.
    expect(seen[1].impressions).toBeLessThan(5000 * 0.05);
    expect(seen[4].status).toBe('active');
    // At the end the goal is met (the sandbox paces a little ahead): stopped at the platform and completed.
    expect(seen[5].impressions).toBeGreaterThanOrEqual(5000);
    expect(seen[5].status).toBe('completed');
    expect(seen[5].reach).toBeLessThan(seen[5].impressions);
    expect(seen[5].clicks).toBeGreaterThanOrEqual(30);
    expect(seen[5].clicks).toBeLessThanOrEqual(75);
    const platformRow = await t.db('sandboxAdCampaigns').where({ id: c.facebookCampaignId }).first('stoppedAt');
    expect(platformRow.stoppedAt).toBeInstanceOf(Date);
    expect(await t.db('adSets').where({ campaignId }).first('status')).toEqual({ status: 'completed' });
    const last = await t.db('campaignTransitions').where({ campaignId }).orderBy('id', 'desc').first('fromStatus', 'toStatus', 'reason');
    expect(last).toEqual({ fromStatus: 'active', toStatus: 'completed', reason: 'goal reached' });
    // The daily rows add up to the lifetime impressions.
    const sum = await t.db('campaignDailyMetrics').where({ campaignId }).sum({ n: 'impressions' }).first();
    expect(Number(sum!.n)).toBe(seen[5].impressions);
  });

  it('the scheduled metrics job is registered to run every minute', () => {
    expect(syncMetricsJob.name).toBe('campaigns.sync-metrics');
    expect(syncMetricsJob.schedule).toBe('* * * * *');
  });
});


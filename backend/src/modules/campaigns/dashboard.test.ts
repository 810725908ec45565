import { agentCampaignsSchema, dailyDeliveryListSchema, facebookMetricsSchema } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { loggedInAgent } from '../../../test/factories';
import { createLogger } from '../../platform/logger';
import { SandboxAdPlatform } from './providers/sandbox';
import { syncCampaignMetrics } from './metrics/sync-metrics';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 86_400_000;

/** A campaign launched on the sandbox ad platform: its ten-day timeframe started `daysAgo` days ago. */
async function launchedOnSandbox(agentId: number, listingId: number, impressions: number, daysAgo: number) {
  const sandbox = new SandboxAdPlatform(t.db);
  const startsAt = new Date(Date.now() - daysAgo * DAY);
  const endsAt = new Date(startsAt.getTime() + 10 * DAY);
  const platformId = await sandbox.createCampaign({ name: `c-${agentId}-${impressions}`, specialAdCategories: ['HOUSING'], country: 'US', impressionsGoal: impressions } as never);
  const adSetId = await sandbox.createAdSet({ platformCampaignId: platformId, name: 'set', dailyBudgetCents: 1000, startTime: startsAt, endTime: endsAt, targeting: {} } as never);
  await sandbox.createAd({ platformAdSetId: adSetId, name: 'ad', creativeId: await sandbox.createCreative({ name: 'cre', format: 'single', headline: 'Sunny home', primaryText: 'Sunny 3-bed home.', description: 'Dana', link: 'https://ads.example.com/listing/A1', callToAction: 'LEARN_MORE', images: ['/demo-mls/photos/exterior-01.jpg'] }) } as never);
  const [row] = await t
    .db('campaigns')
    .insert({
      agentId, listingId, templateType: 'just-listed', headline: 'Sunny home', budgetCents: 39900, impressionsRequested: impressions,
      status: 'active', facebookCampaignId: platformId, startsAt, endsAt,
    })
    .returning('id');
  return row.id as number;
}

describe('GET /api/agents/:id/facebook-metrics and /campaigns', () => {
  it('report what the metrics sync stored from the sandbox, the goal ordered, and the daily delivery', async () => {
    const { session, agent } = await loggedInAgent(t, t.newSession(), { name: 'Mia Torres', email: 'mia@example.com', password: 'correct-horse' });
    const empty = await session.get(`/api/agents/${agent.id}/facebook-metrics`).expect(200);
    // Nothing ordered yet: the spec's default goal, no delivery.
    expect(empty.body).toEqual({ totalImpressions: 0, impressionGoal: 50000, totalClicks: 0, reach: 0, engagements: null, updatedAt: null });
    expect((await session.get(`/api/agents/${agent.id}/facebook-metrics/daily`).expect(200)).body).toEqual([]);
    expect((await session.get(`/api/agents/${agent.id}/campaigns`).expect(200)).body).toEqual([]);

    const [listing] = await t
      .db('listings')
      .insert({ agentId: agent.id, mlsId: 'MANUAL-77', address: '9 Bay St', city: 'Tampa', state: 'FL', priceCents: 45000000, bedrooms: 3, bathrooms: 2, squareFeet: 1800, status: 'active', images: JSON.stringify(['https://photos.example.com/a.jpg']) })
      .returning('id');
    const first = await launchedOnSandbox(agent.id, listing.id, 20000, 5);
    const second = await launchedOnSandbox(agent.id, listing.id, 35000, 2);
    // A draft is the wizard's, not a campaign the dashboard counts.
    await t.db('campaigns').insert({ agentId: agent.id, listingId: listing.id, templateType: 'just-listed', budgetCents: 29900, impressionsRequested: 15000, status: 'draft' });

    const synced = await syncCampaignMetrics({ db: t.db, config: t.config, logger: createLogger('silent'), platformFor: () => new SandboxAdPlatform(t.db) });
    expect(synced.updated).toBe(2);
    const stored = await t.db('campaigns').whereIn('id', [first, second]).orderBy('id').select('impressionsDelivered', 'clicks', 'reach');

    const metrics = facebookMetricsSchema.parse((await session.get(`/api/agents/${agent.id}/facebook-metrics`).expect(200)).body);
    expect(stored[0].impressionsDelivered).toBeGreaterThan(1000);
    expect(metrics.totalImpressions).toBe(stored[0].impressionsDelivered + stored[1].impressionsDelivered);
    expect(metrics.totalClicks).toBe(stored[0].clicks + stored[1].clicks);
    expect(metrics.reach).toBe(stored[0].reach + stored[1].reach);
    expect(metrics.impressionGoal).toBe(55000);
    expect(metrics.updatedAt).not.toBeNull();
    // The chart's data are the ad platform's own daily rows, as delivered on each day: they add up to the totals.
    const daily = dailyDeliveryListSchema.parse((await session.get(`/api/agents/${agent.id}/facebook-metrics/daily`).expect(200)).body);
    const storedDays = await t.db('campaignDailyMetrics').whereIn('campaignId', [first, second]).orderBy(['day', 'campaignId']).select('campaignId', t.db.raw('day::text as day'), 'impressions', 'clicks');
    expect(daily).toEqual(storedDays);
    expect(daily.filter((d) => d.campaignId === first).length).toBeGreaterThanOrEqual(5);
    const sum = (id: number, k: 'impressions' | 'clicks') => daily.filter((d) => d.campaignId === id).reduce((a, d) => a + d[k], 0);
    expect(sum(first, 'impressions')).toBe(stored[0].impressionsDelivered);
    expect(sum(second, 'clicks')).toBe(stored[1].clicks);

    const campaigns = agentCampaignsSchema.parse((await session.get(`/api/agents/${agent.id}/campaigns`).expect(200)).body);
    expect(campaigns.map((c) => c.id)).toEqual([second, first]);
    expect(campaigns[0]).toMatchObject({
      status: 'active', price: '399', impressionsRequested: 35000, impressionsDelivered: stored[1].impressionsDelivered,
      listing: { mlsId: 'MANUAL-77', address: '9 Bay St', price: '450000', bedrooms: 3, squareFeet: 1800, imageUrl: 'https://photos.example.com/a.jpg' },
    });
  });

  it('are the owner’s only: another agent, an anonymous browser and an unknown id get 404', async () => {
    const { agent } = await loggedInAgent(t, t.newSession(), { name: 'Noah Reed', email: 'noah@example.com', password: 'correct-horse' });
    const other = await loggedInAgent(t, t.newSession(), { name: 'Ella Cruz', email: 'ella@example.com', password: 'correct-horse' });
    for (const p of ['facebook-metrics', 'facebook-metrics/daily', 'campaigns']) {
      await other.session.get(`/api/agents/${agent.id}/${p}`).expect(404);
      await t.newSession().get(`/api/agents/${agent.id}/${p}`).expect(404);
      await other.session.get(`/api/agents/999999/${p}`).expect(404);
    }
  });
});

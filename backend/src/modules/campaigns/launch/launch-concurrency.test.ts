import nock from 'nock';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { launchJobs } from '../../../../test/jobs';
import { createQueue, type Queue } from '../../../platform/jobs/queue';
import { createLogger } from '../../../platform/logger';
import { markCampaignPaid } from '..';
import { defineLaunchJob, LAUNCH_QUEUE_OPTIONS } from '../jobs/launch-campaign.job';
import { insertListingWithDraftCampaign, waitFor } from '../../../../test/factories';
import { META_TEST_ENV } from '../testing/meta-graph-shapes';
import { mockGraph } from '../testing/meta-nock';

// One-second retries: a duplicate launch that finds the lease taken comes back quickly.
const { retryDelayMax: _max, ...options } = LAUNCH_QUEUE_OPTIONS;
const launchJob = defineLaunchJob({ ...options, retryDelay: 1, retryBackoff: false });

let t: TestContext;
/** A second worker on the same database: another app instance, so two launch jobs can really run at once. */
let secondInstance: Queue;
beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  t = await createTestContext({ work: true, jobs: [launchJob], env: META_TEST_ENV });
  secondInstance = createQueue({ connectionString: t.config.DATABASE_URL!, db: t.db, logger: createLogger('silent'), config: t.config, jobs: [launchJob], work: true });
  await secondInstance.start();
});
afterAll(async () => {
  await secondInstance.stop();
  await t.close();
});
afterEach(() => nock.cleanAll());


describe('launch happens once per campaign (DESIGN §3)', () => {
  it('20 concurrent payment confirmations and a re-sent job make exactly one Meta campaign', async () => {
    // Meta answers each creation after a second, so the re-sent job runs while the first launch is mid-way.
    const graph = mockGraph({}, {}, { latencyMs: 1000 });
    const { campaignId } = await insertListingWithDraftCampaign(t.db);

    // Each confirmation in its own transaction, all at once.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.db.transaction((trx) => markCampaignPaid(trx, t.queue, campaignId, `confirmation ${i}`))),
    );
    expect(results.filter((r) => r.moved)).toHaveLength(1);
    for (const r of results.filter((x) => !x.moved)) expect(['paid', 'launching', 'active']).toContain(r.status);
    // The launch job delivered a second time (pg-boss may run a job twice; ops may resend one), once the first
    // launch holds the lease and waits on Meta: the duplicate then finds the lease taken whenever a worker fetches
    // it (about three seconds of launch remain; workers poll every half second behind a pooler).
    await waitFor('the first launch calling Meta', async () => graph.urls.length > 0);
    const duplicateId = await t.queue.send(launchJob, { campaignId });

    await waitFor('active', async () => (await t.db('campaigns').where({ id: campaignId }).first('status')).status === 'active');
    // Both launch jobs finished: the duplicate found the lease taken, came back, and found the campaign active.
    await waitFor('both launch jobs settled', async () => {
      const jobs = await launchJobs(t.db, campaignId);
      return jobs.length === 2 && jobs.every((j) => !j.open);
    });
    expect(graph.posts.campaigns).toHaveLength(1);
    expect(graph.posts.adsets).toHaveLength(1);
    expect(graph.posts.ads).toHaveLength(1);
    const duplicate = await t.queue.boss.getJobById('campaigns.launch', duplicateId!);
    expect(duplicate?.state).toBe('completed');
    expect(duplicate?.retryCount).toBeGreaterThanOrEqual(1);

    const moves = await t.db('campaignTransitions').where({ campaignId }).orderBy('id').select('toStatus');
    expect(moves.map((m: { toStatus: string }) => m.toStatus)).toEqual(['draft', 'paid', 'launching', 'active']);
    const c = await t.db('campaigns').where({ id: campaignId }).first();
    expect(c.facebookCampaignId).toBe(graph.id('campaigns', 1));
    expect(c.launchLeaseJob).toBeNull();
  });

  it('a launch job that arrives after the launch does nothing', async () => {
    const graph = mockGraph();
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    await t.db.transaction((trx) => markCampaignPaid(trx, t.queue, campaignId, 'paid'));
    await waitFor('active', async () => (await t.db('campaigns').where({ id: campaignId }).first('status')).status === 'active');
    const id = await t.queue.send(launchJob, { campaignId });
    await waitFor('late job completed', async () => (await t.queue.boss.getJobById('campaigns.launch', id!))?.state === 'completed');
    expect(graph.posts.campaigns).toHaveLength(1);
    expect((await t.db('campaigns').where({ id: campaignId }).first()).launchAttempts).toBe(1);
  });

  it('a launch job for an unpaid campaign is refused (dead-lettered) and changes nothing', async () => {
    mockGraph();
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    const id = await t.queue.send(launchJob, { campaignId });
    await waitFor('job failed', async () => (await t.queue.boss.getJobById('campaigns.launch', id!))?.state === 'failed');
    const c = await t.db('campaigns').where({ id: campaignId }).first();
    expect(c).toMatchObject({ status: 'draft', launchAttempts: 0, facebookCampaignId: null });
  });
});

import { createTestContext, type TestContext } from '../../../test/helpers';
import { launchJobs } from '../../../test/jobs';
import { getCampaignForPayment, markCampaignPaid, markCampaignPendingPayment } from '.';
import { insertListingWithDraftCampaign } from '../../../test/factories';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext(); // no workers: the launch jobs stay queued where the test can see them
});
afterAll(() => t.close());

const launchJobsOf = async (campaignId: number) => (await launchJobs(t.db, campaignId)).map((j) => ({ singletonKey: j.singletonKey, state: j.state }));

describe('the payments door', () => {
  it('getCampaignForPayment: what a payment needs, or undefined', async () => {
    const { campaignId, agentId, listingId } = await insertListingWithDraftCampaign(t.db);
    expect(await getCampaignForPayment(campaignId)).toEqual({ id: campaignId, agentId, createdByBrowser: null, listingId, budgetCents: 29900, status: 'draft', impressionsRequested: 15000 });
    expect(await getCampaignForPayment(999999)).toBeUndefined();
  });

  it('checkout: draft → pending_payment once; any other status is left alone', async () => {
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    expect(await t.db.transaction((trx) => markCampaignPendingPayment(trx, campaignId))).toEqual({ moved: true, status: 'pending_payment' });
    expect(await t.db.transaction((trx) => markCampaignPendingPayment(trx, campaignId))).toEqual({ moved: false, status: 'pending_payment' });
  });

  it('paid from pending_payment: moves once and enqueues one launch job, keyed by the campaign', async () => {
    const { campaignId } = await insertListingWithDraftCampaign(t.db, { status: 'pending_payment' });
    expect(await t.db.transaction((trx) => markCampaignPaid(trx, t.queue, campaignId, 'stripe webhook'))).toEqual({ moved: true, status: 'paid' });
    expect(await t.db.transaction((trx) => markCampaignPaid(trx, t.queue, campaignId, 'success page'))).toEqual({ moved: false, status: 'paid' });
    expect(await launchJobsOf(campaignId)).toEqual([{ singletonKey: String(campaignId), state: 'created' }]);
    const last = await t.db('campaignTransitions').where({ campaignId }).orderBy('id', 'desc').first('fromStatus', 'toStatus', 'reason');
    expect(last).toEqual({ fromStatus: 'pending_payment', toStatus: 'paid', reason: 'stripe webhook' });
  });

  it('a payment transaction that rolls back leaves the campaign unpaid and no launch job', async () => {
    const { campaignId } = await insertListingWithDraftCampaign(t.db);
    await expect(
      t.db.transaction(async (trx) => {
        await markCampaignPaid(trx, t.queue, campaignId, 'payment');
        throw new Error('payment row failed');
      }),
    ).rejects.toThrow('payment row failed');
    expect((await getCampaignForPayment(campaignId))?.status).toBe('draft');
    expect(await launchJobsOf(campaignId)).toEqual([]);
  });

  it('an unknown campaign is a 404 error', async () => {
    await expect(t.db.transaction((trx) => markCampaignPaid(trx, t.queue, 999999, 'x'))).rejects.toMatchObject({ status: 404 });
  });
});

import { createTestContext, type TestContext } from '../../../test/helpers';
import { transitionCampaign } from './campaign-transitions';

let t: TestContext;
let campaignId: number;

beforeAll(async () => {
  t = await createTestContext();
  const session = t.newSession();
  const { body: agent } = await session.post('/api/agents').send({ name: 'Lee Park', state: 'TX', manualEntry: true }).expect(201);
  const { body: listing } = await session
    .post('/api/listings')
    .send({ agentId: agent.id, address: '1 Main St', city: 'Austin', state: 'TX', price: '350000', bedrooms: 2, bathrooms: '1.0', squareFeet: 900, status: 'active' })
    .expect(201);
  const { body: campaign } = await session
    .post('/api/campaigns')
    .send({ agentId: agent.id, listingId: listing.id, templateType: 'just-listed', headline: 'Amazing Property in Austin', description: 'Hill Country views.', price: '299', imageUrl: 'https://photos.example.com/austin.jpg' })
    .expect(201);
  campaignId = campaign.id;
});
afterAll(() => t.close());

const transitions = () => t.db('campaignTransitions').where({ campaignId }).orderBy('id').select('fromStatus', 'toStatus', 'reason');
const status = async () => (await t.db('campaigns').where({ id: campaignId }).first('status')).status;

describe('transitionCampaign', () => {
  it('moves a campaign once, recording each move with its time', async () => {
    const before = await t.db('campaigns').where({ id: campaignId }).first('statusChangedAt');
    expect(await transitionCampaign(t.db, campaignId, ['draft'], 'pending_payment', 'checkout')).toBe(true);
    expect(await transitionCampaign(t.db, campaignId, ['draft'], 'pending_payment', 'checkout')).toBe(false);
    expect(await status()).toBe('pending_payment');
    expect(await transitions()).toEqual([
      { fromStatus: null, toStatus: 'draft', reason: 'created' },
      { fromStatus: 'draft', toStatus: 'pending_payment', reason: 'checkout' },
    ]);
    const after = await t.db('campaigns').where({ id: campaignId }).first('statusChangedAt');
    expect(after.statusChangedAt.getTime()).toBeGreaterThanOrEqual(before.statusChangedAt.getTime());
    const [last] = await t.db('campaignTransitions').where({ campaignId }).orderBy('id', 'desc').limit(1);
    expect(last.createdAt).toBeInstanceOf(Date);
  });

  it('moves from any of several statuses, and records the one it left', async () => {
    expect(await transitionCampaign(t.db, campaignId, ['draft', 'pending_payment'], 'paid')).toBe(true);
    expect((await transitions()).pop()).toEqual({ fromStatus: 'pending_payment', toStatus: 'paid', reason: null });
  });

  it('lets only one of two concurrent transactions move it', async () => {
    const attempt = () => t.db.transaction((trx) => transitionCampaign(trx, campaignId, ['paid'], 'launching', 'launch'));
    const results = await Promise.all([attempt(), attempt(), attempt()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await status()).toBe('launching');
    expect((await transitions()).filter((r) => r.toStatus === 'launching')).toHaveLength(1);
  });

  it('rolls back with the caller\u2019s transaction', async () => {
    await expect(
      t.db.transaction(async (trx) => {
        expect(await transitionCampaign(trx, campaignId, ['launching'], 'active')).toBe(true);
        throw new Error('the launch failed after the transition');
      }),
    ).rejects.toThrow('the launch failed');
    expect(await status()).toBe('launching');
    expect((await transitions()).some((r) => r.toStatus === 'active')).toBe(false);
  });

  it('does nothing for an unknown campaign or an empty "from"', async () => {
    expect(await transitionCampaign(t.db, 999999, ['draft'], 'canceled')).toBe(false);
    expect(await transitionCampaign(t.db, campaignId, [], 'canceled')).toBe(false);
    expect(await status()).toBe('launching');
  });
});

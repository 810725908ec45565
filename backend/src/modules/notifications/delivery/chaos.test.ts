import { createTestContext, type TestContext } from '../../../../test/helpers';
import { deliverJob } from './deliver-message';
import { enqueueLeadDeliveries } from './lead-deliveries';
import { deliveryTransports } from './delivery-deps';
import { startReceiver } from '../testing/receiver';
import { agentWithListing, insertLead, waitFor } from '../../../../test/factories';

/**
 * Chaos: the agent's receiver refuses connections for a while (its port is closed) while leads keep
 * arriving. With the retry schedule shortened by configuration, every lead is delivered once it is back,
 * and none twice.
 */
describe('a receiver that refuses connections for a while', () => {
  let t: TestContext;
  beforeAll(async () => {
    // 5 s → 1 ms, 5 min → 60 ms, 30 min → 360 ms, 2 h → 1.4 s …
    t = await createTestContext({ work: true, jobs: [deliverJob], env: { DELIVERY_RETRY_TIME_SCALE: '0.0002' } });
  });
  afterAll(() => t.close());

  it('gets every lead exactly once after it comes back', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    const { agent, listing } = await agentWithListing(t.db, { email: null });
    await t.db('notificationSettings').insert({ agentId: agent.id, emailNotifications: false, webhookUrl: rx.url(), webhookSecretEnc: deliveryTransports(t.config).box.seal('s3cret') });
    await rx.refuse();

    const LEADS = 20;
    for (let i = 0; i < LEADS; i++) {
      const lead = await insertLead(t.db, agent, listing, { name: `Buyer ${i}` });
      await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead));
    }
    // Every lead has failed at least once against the closed port before the receiver comes back.
    await waitFor('first attempts refused', async () => {
      const { count } = (await t.db('notificationMessages').where({ agentId: agent.id }).andWhere('attempts', '>=', 1).count({ count: '*' }).first()) as { count: string };
      return Number(count) === LEADS;
    }, 10000);
    expect(rx.received).toHaveLength(0);
    await rx.accept();

    await waitFor('all delivered', async () => {
      const { count } = (await t.db('notificationMessages').where({ agentId: agent.id, status: 'delivered' }).count({ count: '*' }).first()) as { count: string };
      return Number(count) === LEADS;
    }, 25000);
    try {
      const ids = rx.received.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(LEADS);
      expect(ids).toHaveLength(LEADS);
      const failed = await t.db('notificationDeliveries').where({ agentId: agent.id, status: 'failed' });
      expect(failed.length).toBeGreaterThanOrEqual(LEADS);
      expect(failed.every((f) => /network|refused|ECONNREFUSED/i.test(f.error))).toBe(true);
    } finally {
      await rx.close();
    }
  }, 45000);
});

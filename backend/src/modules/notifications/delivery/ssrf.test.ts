import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createLogger } from '../../../platform/logger';
import { attemptDelivery, deliverJob } from './deliver-message';
import { enqueueLeadDeliveries } from './lead-deliveries';
import { deliveryTransports } from './delivery-deps';
import { startReceiver } from '../testing/receiver';
import { agentWithListing, insertLead } from '../../../../test/factories';

/**
 * Webhook URLs are typed by users: every address that is not public unicast is refused when the
 * connection is made (literal addresses, and names that resolve to them), no redirect is followed,
 * and each refusal is a logged, failed attempt. The receiver is never reached.
 */
async function deliverTo(t: TestContext, url: string) {
  const { agent, listing } = await agentWithListing(t.db, { email: null });
  // Written straight to the table: the settings API would refuse these URLs before any delivery.
  await t.db('notificationSettings').insert({ agentId: agent.id, emailNotifications: false, webhookUrl: url, webhookSecretEnc: deliveryTransports(t.config).box.seal('s3cret') });
  const lead = await insertLead(t.db, agent, listing);
  await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead));
  const message = await t.db('notificationMessages').where({ leadId: lead.id, channel: 'webhook' }).first();
  const result = await attemptDelivery({ db: t.db, config: t.config, logger: createLogger('silent'), queue: t.queue, ...deliveryTransports(t.config) }, Number(message.id), 1);
  const row = await t.db('notificationDeliveries').where({ messageId: message.id }).first();
  return { result, row };
}

describe('SSRF: refused addresses (loopback not allowed, as in production)', () => {
  let t: TestContext;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    t = await createTestContext({ env: { OUTBOUND_ALLOW_LOOPBACK: 'false' }, jobs: [deliverJob] });
    rx = await startReceiver(() => ({ status: 200 }));
  });
  afterAll(async () => {
    await rx.close();
    await t.close();
  });

  const port = () => new URL(rx.url()).port;
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port()}/hook`],
    ['[::1]', () => `http://[::1]:${port()}/hook`],
    ['10.0.0.1 (10/8)', () => 'https://10.0.0.1/hook'],
    ['169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a DNS name resolving to loopback', () => `http://localhost:${port()}/hook`],
  ])('%s is refused and logged as a failed attempt', async (_name, url) => {
    const { result, row } = await deliverTo(t, url());
    expect(result.outcome).toMatchObject({ ok: false, statusCode: null });
    expect(row).toMatchObject({ status: 'failed', attempt: 1, responseCode: null });
    expect(row.error).toMatch(/^blocked_address: /);
    expect(rx.received).toHaveLength(0);
  });
});

describe('SSRF: redirects are never followed', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Loopback allowed here (tests' receivers live there); the redirect's target is still never reached.
    t = await createTestContext({ jobs: [deliverJob] });
  });
  afterAll(() => t.close());

  it('a 302 to a loopback address is a failed attempt; the target is not called', async () => {
    const target = await startReceiver(() => ({ status: 200 }));
    const redirector = await startReceiver(() => ({ status: 302, headers: { Location: target.url('/internal-admin') } }));
    try {
      const { row } = await deliverTo(t, redirector.url('/hook'));
      expect(row).toMatchObject({ status: 'failed', responseCode: 302 });
      expect(row.error).toContain('redirects are not followed');
      expect(redirector.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
      await redirector.close();
    }
  });
});

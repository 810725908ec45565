/**
 * The Zapier app's own tests, with zapier-platform-core's app tester, against the product started here: the
 * real Koa app on a real database (embedded PostgreSQL), its delivery worker, and a local receiver standing
 * in for Zapier's hook URL. Run by `npm test` (jest's server project) and by `npm test` in this folder.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zapier from 'zapier-platform-core';
import { createTestContext, type TestContext } from '../../../backend/test/helpers';
import { postLead, wizardBrowser } from '../../../backend/test/factories';
import { createApp } from '../../../backend/src/app';
import { createLogger } from '../../../backend/src/platform/logger';
import { deliverJob } from '../../../backend/src/modules/notifications';
import { startReceiver } from '../../../backend/src/modules/notifications/testing/receiver';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const App = require('../index');
const appTester = zapier.createAppTester(App);
const trigger = App.triggers.new_lead.operation;

let t: TestContext;
let server: http.Server;
let apiKey: string;
let agentId: number;
let mlsId: string;

async function until<T>(check: () => T | undefined | false, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sendLead = (name: string) => postLead(t, mlsId, { name });

beforeAll(async () => {
  t = await createTestContext({ work: true, jobs: [deliverJob] });
  const app = createApp({ config: t.config, db: t.db, logger: createLogger('silent'), queue: t.queue });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.LISTING_ADS_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { session, agent, listing } = await wizardBrowser(t.newSession());
  agentId = agent.id;
  mlsId = listing.mlsId;
  await session.put(`/api/agents/${agentId}/notification-settings`).send({ emailNotifications: false }).expect(200);
  apiKey = (await session.post(`/api/agents/${agentId}/api-keys`).send({ name: 'Zapier' }).expect(201)).body.key;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  delete process.env.LISTING_ADS_URL;
});

describe('the Listing Ads Zapier app', () => {
  it('authenticates with an API key, tested with /api/v1/me, and labels the connection', async () => {
    const me = await appTester(App.authentication.test, { authData: { apiKey } });
    expect(me).toMatchObject({ id: agentId, apiKey: { name: 'Zapier', scopes: ['leads:read', 'hooks:write'] } });
    expect(App.authentication.connectionLabel({}, { inputData: me })).toBe(`${me.name} (Zapier)`);
    await expect(appTester(App.authentication.test, { authData: { apiKey: `${apiKey}x` } })).rejects.toThrow('This API key is not valid (it may have been revoked)');
  });

  it('New Lead: subscribe, receive a lead through the hook, perform it, list samples in the same shape, unsubscribe', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    try {
      const targetUrl = rx.url('/hooks/standard/123/abc');
      const subscribed = await appTester(trigger.performSubscribe, { authData: { apiKey }, targetUrl });
      expect(subscribed).toMatchObject({ id: expect.any(Number), targetUrl, event: 'lead.created' });

      const leadId = await sendLead('Jordan Buyer');
      const hit = await until(() => rx.received.find((r) => r.url === '/hooks/standard/123/abc'));
      const performed = await appTester(trigger.perform, { authData: { apiKey }, cleanedRequest: JSON.parse(hit.body) });
      expect(performed).toEqual([
        expect.objectContaining({ id: leadId, lead_name: 'Jordan Buyer', lead_email: 'jordan@example.com', interested_in_tour: true, listing_mls_id: mlsId, listing_address: '12 Palm Ave', listing_price: '450000' }),
      ]);
      // Every field of the trigger's sample and output list is present in a live lead.
      for (const f of trigger.outputFields) expect(performed[0]).toHaveProperty(f.key);
      expect(Object.keys(performed[0]).sort()).toEqual(Object.keys(trigger.sample).sort());

      const listed = await appTester(trigger.performList, { authData: { apiKey } });
      expect(listed[0]).toEqual(performed[0]);
      // A test event (or anything else) makes no Zap run.
      expect(await appTester(trigger.perform, { authData: { apiKey }, cleanedRequest: { type: 'lead.test', data: {} } })).toEqual([]);

      const gone = await appTester(trigger.performUnsubscribe, { authData: { apiKey }, subscribeData: subscribed });
      expect(gone).toEqual({ id: subscribed.id, status: 204 });
      // The next lead is handed over with no hook message at all.
      const after = await sendLead('After Unsubscribe');
      expect(await t.db('notificationMessages').where({ leadId: after, channel: 'hook' })).toEqual([]);
      expect(rx.received.filter((r) => r.url === '/hooks/standard/123/abc')).toHaveLength(1);
      await expect(appTester(trigger.performUnsubscribe, { authData: { apiKey }, subscribeData: subscribed })).rejects.toThrow('Hook not found');
    } finally {
      await rx.close();
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';
import { signedInBrowser } from '../../../test/factories';
import { startReceiver } from './testing/receiver';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'notif-routes-')) } });
});
afterAll(() => t.close());

const settingsUrl = (id: number) => `/api/agents/${id}/notification-settings`;

describe('GET/PUT /api/agents/:id/notification-settings', () => {
  it('starts with both emails on and nothing else', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const res = await session.get(settingsUrl(agent.id)).expect(200);
    expect(res.body).toEqual({
      emailNotifications: true,
      instantNotifications: true,
      webhookUrl: null,
      hasWebhookSecret: false,
      webhookDisabled: false,
      zapierWebhookUrl: null,
      zapierDisabled: false,
      crmType: null,
      crmWebhookUrl: null,
      hasCrmApiKey: false,
      crmDisabled: false,
      waitingEmails: 0,
    });
  });

  it('keeps secrets write-only and encrypted at rest; a typed secret replaces, an empty one keeps, clear removes', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const saved = await session
      .put(settingsUrl(agent.id))
      .send({ webhookUrl: 'https://hooks.example.com/leads', webhookSecret: 'my-own-secret', crmType: 'followupboss', crmApiKey: 'fub-key-123', instantNotifications: false })
      .expect(200);
    expect(saved.body).toMatchObject({ webhookUrl: 'https://hooks.example.com/leads', hasWebhookSecret: true, crmType: 'followupboss', hasCrmApiKey: true, instantNotifications: false });
    expect(saved.body).not.toHaveProperty('generatedWebhookSecret');
    expect(JSON.stringify(saved.body)).not.toMatch(/my-own-secret|fub-key-123/);
    const row = await t.db('notificationSettings').where({ agentId: agent.id }).first();
    expect(row.webhookSecretEnc).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toMatch(/my-own-secret|fub-key-123/);

    // Not typed: kept.
    await session.put(settingsUrl(agent.id)).send({ webhookSecret: '', crmApiKey: null, emailNotifications: false }).expect(200);
    const again = await t.db('notificationSettings').where({ agentId: agent.id }).first();
    expect(again.webhookSecretEnc).toBe(row.webhookSecretEnc);
    expect(again.crmApiKeyEnc).toBe(row.crmApiKeyEnc);

    // Cleared: the CRM key goes (and Follow Up Boss cannot work without one); the webhook gets a new generated secret.
    const noKey = await session.put(settingsUrl(agent.id)).send({ clearCrmApiKey: true }).expect(400);
    expect(noKey.body.fields).toEqual({ crmApiKey: 'An API key is required for this CRM' });
    const rotated = await session.put(settingsUrl(agent.id)).send({ clearWebhookSecret: true }).expect(200);
    expect(rotated.body.generatedWebhookSecret).toMatch(/^whsec_/);
    expect((await session.get(settingsUrl(agent.id))).body).not.toHaveProperty('generatedWebhookSecret');
  });

  it('generates a webhook secret, shown once, when the agent sets none', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const res = await session.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://hooks.example.com/x' }).expect(200);
    expect(res.body.hasWebhookSecret).toBe(true);
    expect(res.body.generatedWebhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    // A later save of the same URL keeps it and shows nothing.
    const next = await session.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://hooks.example.com/x', emailNotifications: false }).expect(200);
    expect(next.body).not.toHaveProperty('generatedWebhookSecret');
    // Clearing the URL removes its secret.
    const cleared = await session.put(settingsUrl(agent.id)).send({ webhookUrl: '' }).expect(200);
    expect(cleared.body).toMatchObject({ webhookUrl: null, hasWebhookSecret: false });
  });

  it('masks the Zapier and CRM URLs (they are credentials) and keeps them when sent back masked', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const res = await session
      .put(settingsUrl(agent.id))
      .send({ zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/123456/abcdef/', crmType: 'custom', crmWebhookUrl: 'https://crm.example.com/in/token-xyz' })
      .expect(200);
    expect(res.body).toMatchObject({ zapierWebhookUrl: 'https://hooks.zapier.com/hooks/…', crmWebhookUrl: 'https://crm.example.com/in/…', hasCrmApiKey: false });
    await session.put(settingsUrl(agent.id)).send({ zapierWebhookUrl: res.body.zapierWebhookUrl, crmWebhookUrl: res.body.crmWebhookUrl }).expect(200);
    const row = await t.db('notificationSettings').where({ agentId: agent.id }).first();
    expect(row.zapierWebhookUrl).toBe('https://hooks.zapier.com/hooks/catch/123456/abcdef/');
    expect(row.crmWebhookUrl).toBe('https://crm.example.com/in/token-xyz');
  });

  it('answers bad input with field messages', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const res = await session
      .put(settingsUrl(agent.id))
      .send({ webhookUrl: 'ftp://x.example.com', zapierWebhookUrl: 'https://example.com/hooks/catch/1/2', crmType: 'kvcore', emailNotifications: 'yes' })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'request.invalid',
      fields: {
        webhookUrl: 'Webhook URL must be a valid HTTPS URL',
        zapierWebhookUrl: 'Zapier webhook URL must be a https://hooks.zapier.com/ catch hook URL',
        crmType: 'Please select a supported CRM',
        emailNotifications: 'emailNotifications must be true or false',
      },
    });
    const crm = await session.put(settingsUrl(agent.id)).send({ crmType: 'custom' }).expect(400);
    expect(crm.body.fields).toEqual({ crmWebhookUrl: 'CRM webhook URL is required for this CRM' });
  });

  it('refuses a whsec_ secret that is not base64 of a 24 to 64 byte key, with a field message, and stores nothing (L2)', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    for (const webhookSecret of ['whsec_not-base64!', `whsec_${Buffer.alloc(16, 7).toString('base64')}`]) {
      const res = await session.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://hooks.example.com/leads', webhookSecret }).expect(400);
      expect(res.body.fields).toEqual({ webhookSecret: 'A whsec_ secret must be whsec_ followed by the base64 of a 24 to 64 byte key' });
    }
    expect(await t.db('notificationSettings').where({ agentId: agent.id }).first()).toBeUndefined();
    const good = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await session.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://hooks.example.com/leads', webhookSecret: good }).expect(200);
  });

  it('is for the owner only: 404 for another session (as for an unknown agent: ids cannot be probed), 400 for a bad id', async () => {
    const { agent } = await signedInBrowser(t, t.newSession());
    const stranger = t.newSession();
    expect((await stranger.get(settingsUrl(agent.id)).expect(404)).body.code).toBe('agents.not_found');
    await stranger.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://evil.example.com' }).expect(404);
    await stranger.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(404);
    await stranger.get(`/api/agents/${agent.id}/deliveries`).expect(404);
    await stranger.get(settingsUrl(99999999)).expect(404);
    await stranger.get('/api/agents/abc/notification-settings').expect(400);
    expect(await t.db('notificationSettings').where({ agentId: agent.id }).first()).toBeUndefined();
  });
});

describe('integration URLs and their secrets', () => {
  it('refuses private, loopback, link-local, metadata and unresolvable targets at save, with one field message (L3)', async () => {
    // The names resolve through backend/test/offline-dns.cjs: *.internal.test is a private address. Loopback is
    // allowed in this file (OUTBOUND_ALLOW_LOOPBACK, as the tests' receivers need) but nothing else local.
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const message = 'This URL must point to a public internet address';
    const res = await session
      .put(settingsUrl(agent.id))
      .send({ webhookUrl: 'https://crm.internal.test/hook', crmType: 'custom', crmWebhookUrl: 'http://169.254.169.254/latest/meta-data/' })
      .expect(400);
    expect(res.body.fields).toEqual({ webhookUrl: message, crmWebhookUrl: message });
    for (const webhookUrl of ['https://10.0.0.5/in', 'https://[fd00:ec2::254]/in', 'https://192.168.1.20/in', 'https://no-such-host.invalid/in', 'http://0.0.0.0:8080/in']) {
      expect((await session.put(settingsUrl(agent.id)).send({ webhookUrl }).expect(400)).body.fields).toEqual({ webhookUrl: message });
    }
    expect(await t.db('notificationSettings').where({ agentId: agent.id }).first()).toBeUndefined();
    await session.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://hooks.example.com/in' }).expect(200);
  });

  it('answers every failed test send with the same message, whatever failed; the delivery log has the details (L3)', async () => {
    const rx = await startReceiver(() => ({ status: 500, body: 'boom' }));
    const closed = await startReceiver();
    await closed.refuse();
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      const answers: unknown[] = [];
      for (const webhookUrl of [rx.url(), closed.url()]) {
        await session.put(settingsUrl(agent.id)).send({ webhookUrl }).expect(200);
        const res = await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(502);
        answers.push({ ...res.body, deliveryId: 0 });
      }
      expect(answers[0]).toEqual(answers[1]);
      const log = (await session.get(`/api/agents/${agent.id}/deliveries`).expect(200)).body.items;
      expect(log.map((d: { responseCode: number | null }) => d.responseCode)).toEqual([null, 500]);
      expect(log[0].error).toMatch(/network/);
    } finally {
      await rx.close();
    }
  });

  it('ends the stored webhook secret when the URL changes: the new URL gets a new one, never the old', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      const first = await session.put(settingsUrl(agent.id)).send({ webhookUrl: 'https://hooks.example.com/old' }).expect(200);
      const moved = await session.put(settingsUrl(agent.id)).send({ webhookUrl: rx.url() }).expect(200);
      expect(moved.body.generatedWebhookSecret).toMatch(/^whsec_/);
      expect(moved.body.generatedWebhookSecret).not.toBe(first.body.generatedWebhookSecret);
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(200);
      const headers = rx.received[0].headers as Record<string, string>;
      expect(() => new Webhook(first.body.generatedWebhookSecret).verify(rx.received[0].body, headers)).toThrow();
      expect(new Webhook(moved.body.generatedWebhookSecret).verify(rx.received[0].body, headers)).toMatchObject({ type: 'lead.test' });
      // A secret typed with the new URL is the one kept.
      const typed = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
      const withSecret = await session.put(settingsUrl(agent.id)).send({ webhookUrl: rx.url('/other'), webhookSecret: typed }).expect(200);
      expect(withSecret.body).toMatchObject({ hasWebhookSecret: true });
      expect(withSecret.body).not.toHaveProperty('generatedWebhookSecret');
    } finally {
      await rx.close();
    }
  });

  it('ends the stored CRM key when the CRM URL changes: "Test CRM" never carries the old key to the new URL', async () => {
    const oldCrm = await startReceiver(() => ({ status: 200 }));
    const newCrm = await startReceiver(() => ({ status: 200 }));
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      await session.put(settingsUrl(agent.id)).send({ crmType: 'custom', crmWebhookUrl: oldCrm.url('/in'), crmApiKey: 'old-crm-key-123' }).expect(200);
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'crm' }).expect(200);
      expect(oldCrm.received[0].headers.authorization).toBe('Bearer old-crm-key-123');

      const moved = await session.put(settingsUrl(agent.id)).send({ crmType: 'custom', crmWebhookUrl: newCrm.url('/in') }).expect(200);
      expect(moved.body).toMatchObject({ crmType: 'custom', hasCrmApiKey: false });
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'crm' }).expect(200);
      expect(newCrm.received).toHaveLength(1);
      expect(newCrm.received[0].headers.authorization).toBeUndefined();
      expect(JSON.stringify(newCrm.received[0])).not.toContain('old-crm-key-123');
      // The key typed again for the new URL goes there.
      await session.put(settingsUrl(agent.id)).send({ crmApiKey: 'new-crm-key-456' }).expect(200);
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'crm' }).expect(200);
      expect(newCrm.received[1].headers.authorization).toBe('Bearer new-crm-key-456');
      // Sent back masked (as the form shows it), the URL is unchanged and the key stays.
      const view = (await session.get(settingsUrl(agent.id)).expect(200)).body;
      expect((await session.put(settingsUrl(agent.id)).send({ crmType: 'custom', crmWebhookUrl: view.crmWebhookUrl }).expect(200)).body.hasCrmApiKey).toBe(true);
    } finally {
      await oldCrm.close();
      await newCrm.close();
    }
  });
});

describe("an admin's Login As and the notification settings", () => {
  it('reads everything and may turn the emails on or off, but changes no integration, secret or key', async () => {
    const { session: owner, agent } = await signedInBrowser(t, t.newSession());
    await owner
      .put(settingsUrl(agent.id))
      .send({ webhookUrl: 'https://hooks.example.com/leads', zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc/', crmType: 'custom', crmWebhookUrl: 'https://crm.example.com/in/tok', crmApiKey: 'k-123' })
      .expect(200);
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
    const view = (await admin.get(settingsUrl(agent.id)).expect(200)).body;
    expect(view).toMatchObject({ webhookUrl: 'https://hooks.example.com/leads', hasWebhookSecret: true, crmType: 'custom', hasCrmApiKey: true });

    for (const body of [
      { webhookUrl: 'https://attacker.example.com/in' },
      { webhookUrl: '' },
      { zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/9/evil/' },
      { crmWebhookUrl: 'https://attacker.example.com/crm' },
      { crmType: 'followupboss' },
      { crmType: '' },
      { webhookSecret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` },
      { crmApiKey: 'other' },
      { clearWebhookSecret: true },
      { clearCrmApiKey: true },
    ]) {
      const res = await admin.put(settingsUrl(agent.id)).send(body).expect(403);
      expect(res.body).toMatchObject({ code: 'auth.impersonation_read_only' });
    }
    // The form sent back as shown (masked URLs) with only a toggle changed: saved, integrations untouched.
    const saved = await admin
      .put(settingsUrl(agent.id))
      .send({ emailNotifications: false, webhookUrl: view.webhookUrl, zapierWebhookUrl: view.zapierWebhookUrl, crmType: view.crmType, crmWebhookUrl: view.crmWebhookUrl })
      .expect(200);
    expect(saved.body).toEqual({ ...view, emailNotifications: false });
    const row = await t.db('notificationSettings').where({ agentId: agent.id }).first();
    expect(row).toMatchObject({ webhookUrl: 'https://hooks.example.com/leads', crmWebhookUrl: 'https://crm.example.com/in/tok', zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc/' });
  });
});

describe('GET /api/crm-integrations', () => {
  it('lists the native CRMs this server can deliver to, and the generic JSON webhook', async () => {
    const res = await t.request.get('/api/crm-integrations').expect(200);
    expect(res.body.map((c: { type: string; name: string; apiKeyLabel: string }) => [c.type, c.name, c.apiKeyLabel])).toEqual([
      ['followupboss', 'Follow Up Boss', 'API key'],
      ['hubspot', 'HubSpot', 'Private app access token'],
      ['lofty', 'Lofty', 'API key'],
      ['custom', 'Other CRM (JSON webhook)', 'API key'],
    ]);
    // Real Geeks needs this server's own Real Geeks credentials: without them it is neither listed nor accepted.
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const refused = await session.put(settingsUrl(agent.id)).send({ crmType: 'realgeeks', crmApiKey: '4a9f0c1e-2b3d-4e5f-8a6b-7c8d9e0f1a2b' }).expect(400);
    expect(refused.body.fields).toEqual({ crmType: 'Please select a supported CRM' });
  });

  it('saves Lofty with its API key (write-only, encrypted), and asks for the key when it is missing', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    expect((await session.put(settingsUrl(agent.id)).send({ crmType: 'lofty' }).expect(400)).body.fields).toEqual({ crmApiKey: 'An API key is required for this CRM' });
    const saved = await session.put(settingsUrl(agent.id)).send({ crmType: 'lofty', crmApiKey: 'lofty-key-0123456789' }).expect(200);
    expect(saved.body).toMatchObject({ crmType: 'lofty', hasCrmApiKey: true, crmWebhookUrl: null });
    expect(JSON.stringify(saved.body)).not.toContain('lofty-key');
    const row = await t.db('notificationSettings').where({ agentId: agent.id }).first();
    expect(row.crmType).toBe('lofty');
    expect(row.crmApiKeyEnc).not.toContain('lofty-key');
  });
});

describe('POST /api/agents/:id/test-webhook', () => {
  it('sends a signed lead.test through the delivery path and names the receiver status', async () => {
    const rx = await startReceiver(() => ({ status: 200, body: 'thanks' }));
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      const saved = await session.put(settingsUrl(agent.id)).send({ webhookUrl: rx.url() }).expect(200);
      const res = await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(200);
      expect(res.body).toMatchObject({ message: 'Test custom notification delivered: the receiver answered 200 OK', statusCode: 200 });
      expect(rx.received).toHaveLength(1);
      const body = new Webhook(saved.body.generatedWebhookSecret).verify(rx.received[0].body, rx.received[0].headers as Record<string, string>) as { type: string };
      expect(body.type).toBe('lead.test');
      // In the delivery log.
      const log = await session.get(`/api/agents/${agent.id}/deliveries`).expect(200);
      expect(log.body).toMatchObject({ total: 1, page: 1, items: [{ id: res.body.deliveryId, kind: 'lead.test', channel: 'webhook', status: 'succeeded', responseCode: 200, responseBody: 'thanks' }] });
    } finally {
      await rx.close();
    }
  });

  it('answers 502 with one message when the test fails, and 400 when nothing is set', async () => {
    const rx = await startReceiver(() => ({ status: 500 }));
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'zapier' }).expect(400);
      await session.put(settingsUrl(agent.id)).send({ zapierWebhookUrl: rx.url('/z') }).expect(200);
      const res = await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'zapier' }).expect(502);
      expect(res.body).toEqual({
        code: 'notifications.test_failed',
        message: 'Test zapier notification failed: the receiver did not accept it. The delivery log below says what happened.',
        deliveryId: expect.any(Number),
      });
      expect(JSON.parse(rx.received[0].body)).toMatchObject({ event: 'lead.test', lead_name: 'Test Buyer' });
      const bad = await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'email' }).expect(400);
      expect(bad.body.fields).toEqual({ webhookType: 'Webhook type must be custom, zapier or crm' });
    } finally {
      await rx.close();
    }
  });

  it('is rate limited per agent: 10 a minute', async () => {
    const rx = await startReceiver(() => ({ status: 204 }));
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      await session.put(settingsUrl(agent.id)).send({ webhookUrl: rx.url() }).expect(200);
      for (let i = 0; i < 10; i++) await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(200);
      const res = await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(429);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(rx.received).toHaveLength(10);
    } finally {
      await rx.close();
    }
  });
});

describe('GET /api/agents/:id/deliveries and replay', () => {
  it('pages newest first, filters by channel and status, and replays a failed delivery', async () => {
    let up = false;
    const rx = await startReceiver(() => ({ status: up ? 200 : 503 }));
    try {
      const { session, agent } = await signedInBrowser(t, t.newSession());
      await session.put(settingsUrl(agent.id)).send({ webhookUrl: rx.url() }).expect(200);
      await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(502);
      up = true;
      const ok = await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(200);
      const all = await session.get(`/api/agents/${agent.id}/deliveries?pageSize=1`).expect(200);
      expect(all.body).toMatchObject({ total: 2, page: 1, pageSize: 1, items: [{ id: ok.body.deliveryId }] });
      const dead = await session.get(`/api/agents/${agent.id}/deliveries?status=dead&channel=webhook`).expect(200);
      expect(dead.body.items).toHaveLength(1);
      expect(dead.body.items[0]).toMatchObject({ status: 'dead', responseCode: 503 });
      expect((await session.get(`/api/agents/${agent.id}/deliveries?channel=zapier`)).body.total).toBe(0);
      const bad = await session.get(`/api/agents/${agent.id}/deliveries?status=lost&pageSize=500`).expect(400);
      expect(Object.keys(bad.body.fields).sort()).toEqual(['pageSize', 'status']);

      const replay = await session.post(`/api/agents/${agent.id}/deliveries/${dead.body.items[0].id}/replay`).expect(202);
      expect(replay.body).toMatchObject({ webhookId: dead.body.items[0].webhookId, attempt: 2 });
      // The replay is a queued job (workers are off in this file): it is there, for attempt 2.
      const job = await t.db.raw(`select data from pgboss.job where name = 'notifications.deliver' order by created_on desc limit 1`);
      expect(job.rows[0].data).toMatchObject({ attempt: 2 });
      // Another agent's delivery id is a 404 for this agent.
      const other = await signedInBrowser(t, t.newSession());
      await other.session.post(`/api/agents/${other.agent.id}/deliveries/${dead.body.items[0].id}/replay`).expect(404);
    } finally {
      await rx.close();
    }
  });
});

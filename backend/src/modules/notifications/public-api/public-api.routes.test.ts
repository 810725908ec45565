import { Webhook } from 'standardwebhooks';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { postLead, wizardBrowser, type Session } from '../../../../test/factories';
import { deliverJob } from '../delivery/deliver-message';
import { startReceiver } from '../testing/receiver';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ work: true, jobs: [deliverJob], env: { DELIVERY_RETRY_TIME_SCALE: '0.01' } });
});
afterEach(() => t.db('rate_limits').delete());
afterAll(() => t.close());

async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An agent (wizard browser) with emails off, one listing, and an API key with both scopes. */
async function agentWithKey(): Promise<{ session: Session; agentId: number; mlsId: string; key: string; keyId: number }> {
  const { session, agent, listing } = await wizardBrowser(t.newSession());
  await session.put(`/api/agents/${agent.id}/notification-settings`).send({ emailNotifications: false }).expect(200);
  const { body } = await session.post(`/api/agents/${agent.id}/api-keys`).send({ name: 'Zapier' }).expect(201);
  return { session, agentId: agent.id, mlsId: listing.mlsId, key: body.key, keyId: body.id };
}

const sendLead = (mlsId: string, name = 'Jordan Buyer') => postLead(t, mlsId, { name });

const subscribe = (key: string, targetUrl: string) => t.request.post('/api/v1/hooks').set('Authorization', `Bearer ${key}`).send({ targetUrl, event: 'lead.created' });

describe('REST hooks', () => {
  it('subscribe answers {id, secret}; each lead is delivered signed per Standard Webhooks, like GET /api/v1/leads lists it', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    try {
      const a = await agentWithKey();
      const { body: hook } = await subscribe(a.key, rx.url('/zap/1')).expect(201);
      expect(hook).toMatchObject({ id: expect.any(Number), targetUrl: rx.url('/zap/1'), event: 'lead.created', secret: expect.stringMatching(/^whsec_/) });
      // Subscribing the same URL again is the same hook (a retried subscribe makes no second one).
      expect((await subscribe(a.key, rx.url('/zap/1')).expect(201)).body.id).toBe(hook.id);

      const leadId = await sendLead(a.mlsId);
      const hit = await until(() => rx.received.find((r) => r.url === '/zap/1'));
      const event = new Webhook(hook.secret).verify(hit.body, hit.headers as Record<string, string>) as { type: string; data: { lead: { id: number } } };
      expect(event.type).toBe('lead.created');
      expect(event.data.lead.id).toBe(leadId);
      expect(() => new Webhook(`whsec_${Buffer.from('another secret!!').toString('base64')}`).verify(hit.body, hit.headers as Record<string, string>)).toThrow();

      // The list serves the same object as the hook's `data` (Zapier's sample and its live events have one shape).
      const { body: page } = await t.request.get('/api/v1/leads').set('X-API-Key', a.key).expect(200);
      expect(page.leads[0]).toEqual(event.data);
      // The attempt is in the delivery log, with the hook URL masked.
      const log = await until(async () => (await a.session.get(`/api/agents/${a.agentId}/deliveries?channel=hook`).expect(200)).body.items[0]);
      expect(log).toMatchObject({ channel: 'hook', status: 'succeeded', responseCode: 200, leadId, target: `${rx.url('/zap')}/…` });
      // The dashboard lists the subscription, masked.
      expect((await a.session.get(`/api/agents/${a.agentId}/hooks`).expect(200)).body).toEqual([{ id: hook.id, targetUrl: `${rx.url('/zap')}/…`, event: 'lead.created', createdAt: hook.createdAt }]);
    } finally {
      await rx.close();
    }
  });

  it('refuses a non-HTTPS or private target and an unknown event with 400', async () => {
    const a = await agentWithKey();
    expect((await subscribe(a.key, 'ftp://example.com/x').expect(400)).body.fields.targetUrl).toBe('targetUrl must be a valid HTTPS URL');
    expect((await subscribe(a.key, 'http://10.0.0.5/hook').expect(400)).body.fields.targetUrl).toBe('targetUrl must be a valid HTTPS URL');
    const ev = await t.request.post('/api/v1/hooks').set('X-API-Key', a.key).send({ targetUrl: 'https://hooks.example.com/x', event: 'lead.deleted' }).expect(400);
    expect(ev.body.fields.event).toBe('event must be one of lead.created');
  });

  it('unsubscribe stops deliveries to that hook', async () => {
    const rx = await startReceiver(() => ({ status: 204 }));
    try {
      const a = await agentWithKey();
      const { body: kept } = await subscribe(a.key, rx.url('/kept')).expect(201);
      const { body: gone } = await subscribe(a.key, rx.url('/gone')).expect(201);
      await t.request.delete(`/api/v1/hooks/${gone.id}`).set('X-API-Key', a.key).expect(204);
      await t.request.delete(`/api/v1/hooks/${gone.id}`).set('X-API-Key', a.key).expect(404);
      const leadId = await sendLead(a.mlsId);
      await until(() => rx.received.find((r) => r.url === '/kept'));
      const messages = await t.db('notificationMessages').where({ leadId, channel: 'hook' }).select('hookId');
      expect(messages.map((m) => Number(m.hookId))).toEqual([kept.id]);
      expect(rx.received.filter((r) => r.url === '/gone')).toEqual([]);
    } finally {
      await rx.close();
    }
  });

  it('a 410 Gone unsubscribes the hook, with no email to the agent and no retry', async () => {
    const rx = await startReceiver(() => ({ status: 410, body: 'zap turned off' }));
    try {
      const a = await agentWithKey();
      const { body: hook } = await subscribe(a.key, rx.url('/off')).expect(201);
      const leadId = await sendLead(a.mlsId);
      await until(async () => !(await t.db('notificationHooks').where({ id: hook.id }).first()));
      const attempts = await t.db('notificationDeliveries').where({ leadId, channel: 'hook' }).select('status', 'responseCode');
      expect(attempts).toEqual([{ status: 'disabled', responseCode: 410 }]);
      expect(await t.db('notificationMessages').where({ agentId: a.agentId, kind: 'endpoint.disabled' })).toEqual([]);
      // The next lead makes no message for the unsubscribed hook.
      const next = await sendLead(a.mlsId);
      expect(await t.db('notificationMessages').where({ leadId: next, channel: 'hook' })).toEqual([]);
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });

  it('stops delivering once the key that subscribed the hook is revoked', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    try {
      const a = await agentWithKey();
      await subscribe(a.key, rx.url('/k')).expect(201);
      await a.session.delete(`/api/agents/${a.agentId}/api-keys/${a.keyId}`).expect(200);
      const leadId = await sendLead(a.mlsId);
      const attempt = await until(() => t.db('notificationDeliveries').where({ leadId, channel: 'hook' }).first());
      expect(attempt).toMatchObject({ status: 'dead', error: 'The API key that subscribed this hook was revoked' });
      expect(rx.received).toEqual([]);
    } finally {
      await rx.close();
    }
  });
});

describe('GET /api/v1/leads', () => {
  it('pages newest first with an opaque cursor, and refuses a forged one', async () => {
    const a = await agentWithKey();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await sendLead(a.mlsId, `Buyer ${i}`));
    const first = (await t.request.get('/api/v1/leads?limit=2').set('X-API-Key', a.key).expect(200)).body;
    expect(first.leads.map((l: { lead: { id: number } }) => l.lead.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = (await t.request.get(`/api/v1/leads?limit=2&cursor=${first.nextCursor}`).set('X-API-Key', a.key).expect(200)).body;
    expect(second).toEqual({ leads: [expect.objectContaining({ lead: expect.objectContaining({ id: ids[0], name: 'Buyer 0' }) })], nextCursor: null });
    expect((await t.request.get('/api/v1/leads?cursor=bm90LWEtY3Vyc29y').set('X-API-Key', a.key).expect(400)).body.fields.cursor).toBe('Invalid cursor');
    await t.request.get('/api/v1/leads?limit=101').set('X-API-Key', a.key).expect(400);
  });
});

describe('IDOR: a key reaches only its own agent', () => {
  it("never reads another agent's leads, nor deletes or lists its hooks", async () => {
    const a = await agentWithKey();
    const b = await agentWithKey();
    const leadOfA = await sendLead(a.mlsId, 'Only A');
    const { body: hookOfA } = await subscribe(a.key, 'https://hooks.example.com/a').expect(201);

    const bLeads = (await t.request.get('/api/v1/leads?limit=100').set('X-API-Key', b.key).expect(200)).body.leads;
    expect(bLeads.map((l: { lead: { id: number } }) => l.lead.id)).not.toContain(leadOfA);
    expect(bLeads.every((l: { agentId: number }) => l.agentId === b.agentId)).toBe(true);

    expect((await t.request.delete(`/api/v1/hooks/${hookOfA.id}`).set('X-API-Key', b.key).expect(404)).body.code).toBe('notifications.hook_not_found');
    expect(await t.db('notificationHooks').where({ id: hookOfA.id }).first()).toBeTruthy();
    await b.session.get(`/api/agents/${a.agentId}/hooks`).expect(404);
    await b.session.delete(`/api/agents/${a.agentId}/hooks/${hookOfA.id}`).expect(404);
    expect((await b.session.delete(`/api/agents/${b.agentId}/hooks/${hookOfA.id}`).expect(404)).body.code).toBe('notifications.hook_not_found');
    // Subscribing the same URL under B makes B's own hook, never A's.
    const { body: hookOfB } = await subscribe(b.key, 'https://hooks.example.com/a').expect(201);
    expect(hookOfB.id).not.toBe(hookOfA.id);
    expect(hookOfB.secret).not.toBe(hookOfA.secret);
  });
});

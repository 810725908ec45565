import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { DELIVERY_RETRY_SCHEDULE_SECONDS } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createLogger } from '../../../platform/logger';
import { deliverJob, sendDigestsJob } from '..';
import { enqueueLeadDeliveries } from './lead-deliveries';
import { replayDelivery } from './deliveries.service';
import { deliveryTransports } from './delivery-deps';
import { saveSettings } from '../settings/settings.service';
import { startReceiver } from '../testing/receiver';
import { agentWithListing, insertLead, insertListingWithDraftCampaign, waitFor } from '../../../../test/factories';
import { notifyCampaignLive } from './campaign-live';
import { resolvesToPublicAddresses } from '../../../platform/outbound/http';
import { registry } from '../../../platform/metrics';

/** A counter's value for the labels given (the others summed). */
async function counted(metric: string, labels: Record<string, string>): Promise<number> {
  const { values } = await registry.getSingleMetric(metric)!.get();
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((n, v) => n + v.value, 0);
}

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

async function setup(t: TestContext, settings: Record<string, unknown>, agentOpts: { email?: string | null } = {}) {
  const { agent, listing } = await agentWithListing(t.db, agentOpts);
  // The receivers here are on loopback, which this configuration allows (OUTBOUND_ALLOW_LOOPBACK).
  const isPublicTarget = (url: string) => resolvesToPublicAddresses(url, { allowLoopback: t.config.OUTBOUND_ALLOW_LOOPBACK });
  await saveSettings(t.db, deliveryTransports(t.config).box, agent.id, settings as never, { isPublicTarget });
  return { agent, listing };
}

async function submitLead(t: TestContext, agent: { id: number }, listing: { id: number; mlsId: string }) {
  const lead = await insertLead(t.db, agent, listing);
  await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead));
  return lead;
}

const message = (t: TestContext, leadId: number, channel: string) => t.db('notificationMessages').where({ leadId, channel }).first();
const attempts = (t: TestContext, messageId: number) => t.db('notificationDeliveries').where({ messageId }).orderBy('attempt');
const outboxFiles = (t: TestContext) => (fs.existsSync(path.join(t.config.DATA_DIR, 'outbox')) ? fs.readdirSync(path.join(t.config.DATA_DIR, 'outbox')).map((f) => fs.readFileSync(path.join(t.config.DATA_DIR, 'outbox', f), 'utf8')) : []);

describe('lead delivery through pg-boss (retry schedule shortened by configuration)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      work: true,
      jobs: [deliverJob],
      env: { DELIVERY_RETRY_TIME_SCALE: '0.001', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'deliver-')) },
    });
  });
  afterAll(() => t.close());

  it('retries a 500 and then delivers, signed, with the same webhook-id and body; the email goes out too', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' }));
    const attempt = (outcome: string) => counted('listing_ads_delivery_attempts_total', { channel: 'webhook', kind: 'lead.created', outcome });
    const before = { failed: await attempt('failed'), succeeded: await attempt('succeeded'), jobs: await counted('listing_ads_job_runs_total', { queue: 'notifications.deliver', outcome: 'completed' }) };
    try {
      const { agent, listing } = await setup(t, { webhookUrl: rx.url(), webhookSecret: SECRET });
      const lead = await submitLead(t, agent, listing);
      const m = await waitFor('webhook delivered', async () => {
        const row = await message(t, lead.id, 'webhook');
        return row?.status === 'delivered' && row;
      }, 15000);
      expect(rx.received).toHaveLength(2);
      const [first, second] = rx.received;
      expect(first.headers['webhook-id']).toBe(m.webhookId);
      expect(second.headers['webhook-id']).toBe(m.webhookId);
      expect(second.body).toBe(first.body);
      const body = new Webhook(SECRET).verify(second.body, second.headers as Record<string, string>) as { type: string; data: { lead: { id: number; name: string }; listing: { mlsId: string }; agentId: number } };
      expect(body.type).toBe('lead.created');
      expect(body.data.lead).toMatchObject({ id: lead.id, name: 'Jamie Buyer' });
      expect(body.data.listing.mlsId).toBe(listing.mlsId);
      expect(body.data.agentId).toBe(agent.id);
      expect(Object.keys(JSON.parse(second.body))).toEqual(['type', 'timestamp', 'data']);
      expect(Buffer.byteLength(second.body)).toBeLessThan(20 * 1024);
      const rows = await attempts(t, m.id);
      expect(rows.map((r) => [r.attempt, r.status, r.responseCode])).toEqual([
        [1, 'failed', 500],
        [2, 'succeeded', 200],
      ]);
      expect(rows[0].responseBody).toBe('boom');
      expect(rows[0].target).toBe(rx.url());
      // The metrics count each attempt by channel and outcome, and the jobs that made them.
      expect(await attempt('failed')).toBe(before.failed + 1);
      expect(await attempt('succeeded')).toBe(before.succeeded + 1);
      expect(await counted('listing_ads_job_runs_total', { queue: 'notifications.deliver', outcome: 'completed' })).toBeGreaterThanOrEqual(before.jobs + 2);

      const email = await waitFor('email delivered', async () => {
        const row = await message(t, lead.id, 'email');
        return row?.status === 'delivered' && row;
      }, 10000);
      expect(email.attempts).toBe(1);
      const eml = outboxFiles(t).find((f) => f.includes('Reply-To: jamie@example.com') && f.includes('Is it still available?'));
      expect(eml).toMatch(new RegExp(`^To: ${agent.email}$`, 'm'));
      expect(eml).toMatch(/^Reply-To: jamie@example.com$/m);
      expect(eml).toContain('text/html');
      expect(eml).toContain('text/plain');
      // The dashboard button is a one-time sign-in link, never a dead end at /login.
      expect(eml!.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toMatch(/\/verify-email\?token=[A-Za-z0-9_-]{40,}/);
    } finally {
      await rx.close();
    }
  });

  it('waits as long as Retry-After says before the next attempt', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '1500' } } : { status: 204 }));
    try {
      const { agent, listing } = await setup(t, { webhookUrl: rx.url(), emailNotifications: false });
      const lead = await submitLead(t, agent, listing);
      const m = await waitFor('webhook delivered', async () => {
        const row = await message(t, lead.id, 'webhook');
        return row?.status === 'delivered' && row;
      }, 15000);
      const [a1, a2] = await attempts(t, m.id);
      expect(a1).toMatchObject({ status: 'failed', responseCode: 429 });
      expect(a2).toMatchObject({ status: 'succeeded', responseCode: 204 });
      // Retry-After 1500 s at the test time scale (0.001) is 1.5 s, far past the schedule's 5 s (5 ms here).
      expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(1400);
    } finally {
      await rx.close();
    }
  });

  it('turns the endpoint off on 410 Gone, emails the agent, and sends no later lead there', async () => {
    const rx = await startReceiver(() => ({ status: 410, body: 'gone' }));
    try {
      const { agent, listing } = await setup(t, { webhookUrl: rx.url(), instantNotifications: false });
      const lead = await submitLead(t, agent, listing);
      const m = await waitFor('webhook dead', async () => {
        const row = await message(t, lead.id, 'webhook');
        return row?.status === 'dead' && row;
      }, 10000);
      expect((await attempts(t, m.id)).map((r) => r.status)).toEqual(['disabled']);
      expect((await t.db('notificationSettings').where({ agentId: agent.id }).first()).webhookDisabledAt).not.toBeNull();
      await waitFor('disabled email', async () => (await t.db('notificationMessages').where({ agentId: agent.id, kind: 'endpoint.disabled', status: 'delivered' }).first()) ?? null, 10000);
      expect(outboxFiles(t).some((f) => f.includes('Lead delivery to your custom webhook is turned off'))).toBe(true);

      const later = await submitLead(t, agent, listing);
      expect(await message(t, later.id, 'webhook')).toBeUndefined();
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });

  it('sends once when the same attempt job runs twice', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    try {
      const { agent, listing } = await setup(t, { webhookUrl: rx.url(), emailNotifications: false });
      const lead = await submitLead(t, agent, listing);
      const m = await waitFor('delivered', async () => {
        const row = await message(t, lead.id, 'webhook');
        return row?.status === 'delivered' && row;
      }, 10000);
      // The same job again (as pg-boss may after an expiry), twice at once.
      const ids = await Promise.all([t.queue.send(deliverJob, { messageId: Number(m.id), attempt: 1 }), t.queue.send(deliverJob, { messageId: Number(m.id), attempt: 1 })]);
      await waitFor('duplicate jobs done', async () => {
        const jobs = await t.db.raw(`select state from pgboss.job where id = any(?::uuid[])`, [ids as string[]]);
        return jobs.rows.every((j: { state: string }) => j.state === 'completed');
      }, 10000);
      expect(rx.received).toHaveLength(1);
      expect(await attempts(t, m.id)).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
});

describe('the retry schedule, dead deliveries and replay (the job handler run step by step)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ work: false, jobs: [deliverJob, sendDigestsJob], env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'deliver-')) } });
  });
  afterAll(() => t.close());

  const ctx = () => ({ db: t.db, logger: createLogger('silent'), config: t.config, queue: t.queue, jobId: 'test', retryCount: 0, signal: new AbortController().signal });
  /** The queued delivery jobs, as pg-boss holds them. */
  const queued = async () =>
    (await t.db.raw(`select id, data, start_after, created_on from pgboss.job where name = 'notifications.deliver' and state = 'created' order by created_on`)).rows as {
      id: string;
      data: { messageId: number; attempt: number };
      start_after: Date;
      created_on: Date;
    }[];
  /** Run every due-or-not queued job once, like a worker would when its time comes. */
  async function runQueued() {
    const jobs = await queued();
    for (const j of jobs) {
      await t.db.raw(`update pgboss.job set state = 'completed' where id = ?`, [j.id]);
      await deliverJob.handler(j.data, ctx());
    }
    return jobs;
  }

  it('retries on the Standard Webhooks schedule, then is dead and emails the agent; a replay delivers it', async () => {
    let up = false;
    const rx = await startReceiver(() => (up ? { status: 200 } : { status: 503, body: 'down for maintenance' }));
    try {
      const { agent, listing } = await setup(t, { webhookUrl: rx.url(), emailNotifications: false });
      const lead = await submitLead(t, agent, listing);
      const m = await message(t, lead.id, 'webhook');
      const gaps: number[] = [];
      for (let attempt = 1; attempt <= 10; attempt++) {
        const before = Date.now();
        const ran = await runQueued();
        expect(ran.map((j) => j.data)).toEqual([{ messageId: Number(m.id), attempt }]);
        const next = (await queued()).find((j) => j.data.messageId === Number(m.id));
        if (attempt < 10) gaps.push(Math.round((new Date(next!.start_after).getTime() - before) / 1000));
        else expect(next).toBeUndefined();
      }
      // Seconds until attempts 2…10: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (a second of slack for the run itself).
      gaps.forEach((g, i) => expect(Math.abs(g - DELIVERY_RETRY_SCHEDULE_SECONDS[i + 1])).toBeLessThanOrEqual(1));
      const dead = await message(t, lead.id, 'webhook');
      expect(dead).toMatchObject({ status: 'dead', attempts: 10 });
      const rows = await attempts(t, m.id);
      expect(rows.map((r) => r.status)).toEqual([...Array(9).fill('failed'), 'dead']);
      expect(rx.received).toHaveLength(10);

      // The agent is told by email.
      const notice = await t.db('notificationMessages').where({ agentId: agent.id, kind: 'delivery.dead' }).first();
      expect(notice.payload).toMatchObject({ channel: 'webhook', attempts: 10, leadName: 'Jamie Buyer', webhookId: m.webhookId });
      await runQueued();
      expect(outboxFiles(t).find((f) => f.includes('A lead could not be delivered to your custom webhook'))).toContain(agent.email);

      // Replay once the receiver works: the same webhook-id and body, one more attempt.
      up = true;
      const replay = await replayDelivery(t, agent.id, Number(rows[9].id));
      expect(replay).toMatchObject({ webhookId: m.webhookId, attempt: 11 });
      await runQueued();
      expect(await message(t, lead.id, 'webhook')).toMatchObject({ status: 'delivered', attempts: 11 });
      expect(rx.received).toHaveLength(11);
      expect(rx.received[10].headers['webhook-id']).toBe(m.webhookId);
      expect(rx.received[10].body).toBe(rx.received[0].body);
      // Someone else's delivery cannot be replayed.
      await expect(replayDelivery(t, agent.id + 1000, Number(rows[9].id))).rejects.toMatchObject({ status: 404 });
    } finally {
      await rx.close();
    }
  });

  it('instant notifications off: no email per lead, one digest a day with every lead, made once', async () => {
    const { agent, listing } = await setup(t, { instantNotifications: false }, { email: 'digest@example.com' });
    const a = await submitLead(t, agent, listing);
    const b = await submitLead(t, agent, listing);
    expect(await message(t, a.id, 'email')).toBeUndefined();
    await sendDigestsJob.handler({}, ctx());
    await sendDigestsJob.handler({}, ctx());
    const digests = await t.db('notificationMessages').where({ agentId: agent.id, kind: 'lead.digest' });
    expect(digests).toHaveLength(1);
    expect(digests[0].payload.leads.map((l: { lead: { id: number } }) => l.lead.id)).toEqual([a.id, b.id]);
    await runQueued();
    const eml = outboxFiles(t).find((f) => f.includes('Your daily lead digest: 2 new leads'));
    expect(eml).toMatch(/^To: digest@example.com$/m);
  });

  it('the go-live email goes out once per campaign, with the ad, targeting, budget, impressions and a sign-in link to the dashboard', async () => {
    const { campaignId, agentId } = await insertListingWithDraftCampaign(t.db);
    await t.db('agents').where({ id: agentId }).update({ email: 'golive@example.com', verifiedAt: new Date() });
    const live = {
      campaignId,
      agentId,
      headline: 'Just Listed in Tampa',
      primaryText: 'Sunny 3-bed home with a pool.',
      imageUrl: '/demo-mls/photos/exterior-01.jpg',
      listingAddress: 'Tampa, FL',
      targeting: 'Tampa, FL (+25 mi) · Home buyers',
      budgetCents: 39900,
      impressions: 50000,
      startsAt: '2026-11-24T00:00:00.000Z',
      endsAt: '2026-12-08T00:00:00.000Z',
    };
    // The launch retried, or the transition reported twice: still one email.
    await t.db.transaction((trx) => notifyCampaignLive({ queue: t.queue }, trx, live));
    await t.db.transaction((trx) => notifyCampaignLive({ queue: t.queue }, trx, live));
    expect(await t.db('notificationMessages').where({ campaignId, kind: 'campaign.live' })).toHaveLength(1);
    await runQueued();
    const eml = outboxFiles(t).find((f) => f.includes('To: golive@example.com'));
    expect(eml).toBeDefined();
    const text = eml!.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    for (const part of ['Just Listed in Tampa', 'Sunny 3-bed home with a pool.', 'Home buyers', '$399', '50,000', '/demo-mls/photos/exterior-01.jpg']) {
      expect(text).toContain(part);
    }
    // The dashboard button signs the agent in (a one-time link), never a dead end at /login.
    const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text)![1];
    const browser = t.newSession();
    await browser.post('/api/auth/verify-email').send({ token }).expect(200);
    expect((await browser.get('/api/auth/me').expect(200)).body.id).toBe(agentId);
  });

  it('a lead handed over twice is delivered once', async () => {
    const { agent, listing } = await setup(t, { webhookUrl: 'https://hooks.example.com/in' });
    const lead = await insertLead(t.db, agent, listing);
    await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead));
    await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead));
    expect(await t.db('notificationMessages').where({ leadId: lead.id })).toHaveLength(2); // email + webhook
  });

  it('a rolled-back lead is never delivered', async () => {
    const { agent, listing } = await setup(t, { webhookUrl: 'https://hooks.example.com/in' });
    const lead = await insertLead(t.db, agent, listing);
    const before = (await queued()).length;
    await expect(
      t.db.transaction(async (trx) => {
        await enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead);
        throw new Error('lead insert failed later');
      }),
    ).rejects.toThrow('lead insert failed later');
    expect(await t.db('notificationMessages').where({ leadId: lead.id })).toHaveLength(0);
    expect((await queued()).length).toBe(before);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import twilio from 'twilio';
import { SMS_CONSENT_TEXT } from '@app/contracts';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../../test/helpers';
import { postLead, wizardBrowser, type Session } from '../../../../test/factories';
import { createLogger } from '../../../platform/logger';
import { attemptDelivery } from '../delivery/deliver-message';
import { deliveryTransports } from '../delivery/delivery-deps';
import type { SmsMessage, SmsProvider } from './providers';
import { smsOutboxDir } from './providers';
import { TWILIO_SMS_WEBHOOK_PATH } from './sms.routes';

const smsUrl = (agentId: number) => `/api/agents/${agentId}/sms`;

const sendLead = (t: TestContext, mlsId: string, name: string) => postLead(t, mlsId, { name, email: `${name.split(' ')[0].toLowerCase()}@example.com`, phone: '(813) 555-0177' });

/** The code texted last to the embedded outbox. */
function lastCode(dataDir: string): string {
  const dir = smsOutboxDir({ DATA_DIR: dataDir });
  const newest = fs.readdirSync(dir).sort().pop()!;
  return /verification code is (\d{6})/.exec(fs.readFileSync(path.join(dir, newest), 'utf8'))![1];
}

describe('text alerts with the embedded SMS outbox', () => {
  let t: TestContext;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-sms-'));
    t = await createTestContext({ env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://app.listingads.example' } });
  });
  afterEach(() => t.db('rate_limits').delete());
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function verifiedAgent(): Promise<{ session: Session; agentId: number; mlsId: string }> {
    const { session, agent, listing } = await wizardBrowser(t.newSession());
    await session.put(`/api/agents/${agent.id}/notification-settings`).send({ emailNotifications: false }).expect(200);
    await session.put(smsUrl(agent.id)).send({ phone: '(813) 555-0101', consent: true }).expect(200);
    await session.post(`${smsUrl(agent.id)}/verify`).send({ code: lastCode(dataDir) }).expect(200);
    return { session, agentId: agent.id, mlsId: listing.mlsId };
  }

  it('opts in with a one-time code texted to the number, and stores the consent (time, text shown, address)', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    expect((await session.get(smsUrl(agent.id)).expect(200)).body).toEqual({ phone: null, status: 'off', consentAt: null, codeExpiresAt: null, provider: 'outbox' });
    expect((await session.put(smsUrl(agent.id)).send({ phone: '555', consent: true }).expect(400)).body.fields.phone).toBe('Please enter a valid US mobile number');
    expect((await session.put(smsUrl(agent.id)).send({ phone: '(813) 555-0101', consent: false }).expect(400)).body.fields.consent).toBe('Please agree to receive text alerts');

    const pending = (await session.put(smsUrl(agent.id)).send({ phone: '(813) 555-0101', consent: true }).expect(200)).body;
    expect(pending).toMatchObject({ phone: '(813) 555-0101', status: 'pending', consentAt: null });
    expect(Date.parse(pending.codeExpiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    const code = lastCode(dataDir);
    const row = await t.db('notificationSms').where({ agentId: agent.id }).first();
    expect(row).toMatchObject({ phone: '+18135550101', status: 'pending' });
    expect(row.codeHash).not.toContain(code);

    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await session.post(`${smsUrl(agent.id)}/verify`).send({ code: wrong }).expect(400);
    expect(refused.body.fields.code).toBe('That code is not right. Check the text and try again.');
    await session.post(`${smsUrl(agent.id)}/verify`).send({ code: 'abc' }).expect(400);

    const active = (await session.post(`${smsUrl(agent.id)}/verify`).send({ code }).expect(200)).body;
    expect(active).toMatchObject({ status: 'active', phone: '(813) 555-0101', codeExpiresAt: null });
    const consent = await t.db('notificationSms').where({ agentId: agent.id }).first();
    expect(consent).toMatchObject({ consentText: SMS_CONSENT_TEXT, consentIp: expect.stringMatching(/127\.0\.0\.1|::1/) });
    expect(Date.now() - new Date(consent.consentAt).getTime()).toBeLessThan(60_000);
    expect(await t.db('auditLog').where({ action: 'sms.consent_given', actorId: String(agent.id) }).first()).toBeTruthy();
    // The code works once.
    expect((await session.post(`${smsUrl(agent.id)}/verify`).send({ code }).expect(409)).body.code).toBe('notifications.sms_not_pending');
    // A new number starts over: no consent until its own code is entered.
    await session.put(smsUrl(agent.id)).send({ phone: '813-555-0102', consent: true }).expect(200);
    expect(await t.db('notificationSms').where({ agentId: agent.id }).first()).toMatchObject({ phone: '+18135550102', status: 'pending', consentAt: null, consentText: null });
    // Off.
    expect((await session.delete(smsUrl(agent.id)).expect(200)).body.status).toBe('off');
  });

  it('texts at most 3 codes per 10 minutes, and refuses an admin viewing as the agent', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    for (let i = 0; i < 3; i++) await session.put(smsUrl(agent.id)).send({ phone: '(813) 555-0103', consent: true }).expect(200);
    expect((await session.put(smsUrl(agent.id)).send({ phone: '(813) 555-0103', consent: true }).expect(429)).body.code).toBe('rate_limited');

    await t.db('agents').where({ id: agent.id }).update({ email: `sms-${Date.now()}@example.com` });
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
    await admin.get(smsUrl(agent.id)).expect(200);
    expect((await admin.put(smsUrl(agent.id)).send({ phone: '(813) 555-0104', consent: true }).expect(403)).body.code).toBe('auth.impersonation_read_only');
    await admin.post(`${smsUrl(agent.id)}/verify`).send({ code: '123456' }).expect(403);
    await admin.delete(smsUrl(agent.id)).expect(403);
  });

  it('groups the leads of one minute into one text per agent, safely across concurrent workers, never with the buyer’s email or phone', async () => {
    const { agentId, mlsId } = await verifiedAgent();
    const sent: SmsMessage[] = [];
    const provider: SmsProvider = { name: 'outbox', send: async (m) => (sent.push(m), { id: `text-${sent.length}` }) };
    const deps = { db: t.db, config: t.config, logger: createLogger('silent'), queue: t.queue, ...deliveryTransports(t.config), sms: provider };
    const smsMessageOf = async (leadId: number) => Number((await t.db('notificationMessages').where({ leadId, channel: 'sms' }).first('id')).id);

    const first = await sendLead(t, mlsId, 'Jordan Buyer');
    expect(await attemptDelivery(deps, await smsMessageOf(first), 1)).toMatchObject({ made: true, status: 'succeeded' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({ to: '+18135550101', body: expect.stringContaining('new lead from Jordan Buyer about 12 Palm Ave, Tampa (wants a tour)') });
    expect(sent[0].body).toContain('https://app.listingads.example/dashboard');

    // Two more leads within the minute: each waits for it (no attempt used, nothing sent).
    const second = await sendLead(t, mlsId, 'Casey Second');
    const third = await sendLead(t, mlsId, 'Riley Third');
    const waited = await attemptDelivery(deps, await smsMessageOf(second), 1);
    expect(waited.made).toBe(false);
    expect(waited.deferredUntil!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect((await attemptDelivery(deps, await smsMessageOf(third), 1)).made).toBe(false);
    expect(sent).toHaveLength(1);
    expect(await t.db('notificationDeliveries').whereIn('leadId', [second, third]).where({ channel: 'sms' })).toEqual([]);

    // The minute passes; both waiting attempts run at the same moment (two workers): one text carries both leads.
    await t.db('notificationSms').where({ agentId }).update({ lastSentAt: t.db.raw(`now() - interval '61 seconds'`) });
    const [a, b] = await Promise.all([attemptDelivery(deps, await smsMessageOf(second), 1), attemptDelivery(deps, await smsMessageOf(third), 1)]);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toMatch(/^Listing Ads: 2 new leads: (Casey Second \(12 Palm Ave\) and Riley Third|Riley Third \(12 Palm Ave\) and Casey Second) \(12 Palm Ave\)\. See them: https:\/\/app\.listingads\.example\/dashboard Reply STOP to opt out\.$/);
    const log = await t.db('notificationDeliveries').whereIn('leadId', [second, third]).where({ channel: 'sms' }).select('responseBody', 'target');
    const bodies = log.map((l) => l.responseBody as string).sort();
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatch(/^Sent in the text for lead #\d+ \(2 leads in one text\)$/);
    expect(bodies[1]).toBe('outbox: text-2 (2 leads)');
    expect(log.every((l) => l.target === '…0101')).toBe(true);

    for (const m of sent) {
      expect(m.body).not.toMatch(/@example\.com|555-0177|8135550177/);
    }
  });

  it('a STOP is honoured at once: waiting texts are not sent', async () => {
    const { agentId, mlsId } = await verifiedAgent();
    const sent: SmsMessage[] = [];
    const provider: SmsProvider = { name: 'outbox', send: async (m) => (sent.push(m), { id: 'x' }) };
    const deps = { db: t.db, config: t.config, logger: createLogger('silent'), queue: t.queue, ...deliveryTransports(t.config), sms: provider };
    const lead = await sendLead(t, mlsId, 'Morgan Late');
    await t.db('notificationSms').where({ agentId }).update({ status: 'stopped', stoppedAt: t.db.fn.now() });
    const id = Number((await t.db('notificationMessages').where({ leadId: lead, channel: 'sms' }).first('id')).id);
    expect(await attemptDelivery(deps, id, 1)).toMatchObject({ made: true, status: 'dead', outcome: { error: 'The agent replied STOP: texts are paused until START' } });
    expect(sent).toEqual([]);
  });
});

describe('text alerts with Twilio', () => {
  const SID = 'AC00000000000000000000000000000001';
  const TOKEN = 'twilio-auth-token-0123456789abcdef';
  const PUBLIC_URL = 'https://app.listingads.example';
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { PUBLIC_URL, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: '+18135550000' } });
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  });
  afterEach(async () => {
    nock.cleanAll();
    await t.db('rate_limits').delete();
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await t.close();
  });

  /** The code through Twilio's Messages API (nock: the documented form POST with Basic auth). */
  async function verifyWithTwilio(session: Session, agentId: number, phone: string): Promise<void> {
    let code = '';
    const api = nock('https://api.twilio.com', { reqheaders: { authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}` } })
      .post(`/2010-04-01/Accounts/${SID}/Messages.json`, (body) => {
        expect(body).toMatchObject({ To: phone, From: '+18135550000' });
        code = /code is (\d{6})/.exec(body.Body)![1];
        return true;
      })
      .reply(201, { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued', to: phone, from: '+18135550000' });
    await session.put(smsUrl(agentId)).send({ phone, consent: true }).expect(200);
    expect(api.isDone()).toBe(true);
    await session.post(`${smsUrl(agentId)}/verify`).send({ code }).expect(200);
  }

  const inbound = (params: Record<string, string>, signature?: string) =>
    t.request
      .post(TWILIO_SMS_WEBHOOK_PATH)
      .type('form')
      .set('X-Twilio-Signature', signature ?? twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC_URL}${TWILIO_SMS_WEBHOOK_PATH}`, params))
      .send(params);

  it('sends the code through Twilio and reports a Twilio refusal as 502', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    await verifyWithTwilio(session, agent.id, '+18135550111');
    expect((await session.get(smsUrl(agent.id)).expect(200)).body).toMatchObject({ status: 'active', provider: 'twilio' });
    nock('https://api.twilio.com').post(`/2010-04-01/Accounts/${SID}/Messages.json`).reply(400, { code: 21211, message: "The 'To' number +18135550112 is not a valid phone number.", status: 400 });
    const failed = await session.put(smsUrl(agent.id)).send({ phone: '+18135550112', consent: true }).expect(502);
    expect(failed.body.message).toContain('21211');
  });

  it('STOP (and the other opt-out words) pauses texts at once and START resumes; a forged signature changes nothing', async () => {
    const { session, agent, listing } = await wizardBrowser(t.newSession());
    await session.put(`/api/agents/${agent.id}/notification-settings`).send({ emailNotifications: false }).expect(200);
    await verifyWithTwilio(session, agent.id, '+18135550121');
    const stop = { MessageSid: 'SM1', AccountSid: SID, From: '+18135550121', To: '+18135550000', Body: ' stop ' };

    const forged = await inbound(stop, 'bm90LWEtc2lnbmF0dXJl');
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('notifications.twilio_signature_invalid');
    // Signed for other fields than those sent: refused too.
    await inbound(stop, twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC_URL}${TWILIO_SMS_WEBHOOK_PATH}`, { ...stop, Body: 'START' })).expect(403);
    expect((await session.get(smsUrl(agent.id))).body.status).toBe('active');

    const res = await inbound(stop).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await session.get(smsUrl(agent.id))).body.status).toBe('stopped');
    // A lead now makes no text at all.
    const lead = await sendLead(t, listing.mlsId, 'Sam Stopped');
    expect(await t.db('notificationMessages').where({ leadId: lead, channel: 'sms' })).toEqual([]);

    await inbound({ ...stop, Body: 'Hello?' }).expect(200);
    expect((await session.get(smsUrl(agent.id))).body.status).toBe('stopped');
    await inbound({ ...stop, Body: 'START' }).expect(200);
    expect((await session.get(smsUrl(agent.id))).body.status).toBe('active');
    await inbound({ ...stop, Body: 'unsubscribe' }).expect(200);
    expect((await session.get(smsUrl(agent.id))).body.status).toBe('stopped');
    expect(await t.db('auditLog').where({ action: 'sms.inbound_stop' }).count({ n: '*' })).toEqual([{ n: '2' }]);
  });
});

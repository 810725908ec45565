import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createLogger } from '../../../platform/logger';
import { deliverJob } from '..';
import { attemptDeliveries } from './deliver-message';
import { enqueueLeadDeliveries } from './lead-deliveries';
import { deliveryTransports } from './delivery-deps';
import { saveSettings } from '../settings/settings.service';
import { startReceiver } from '../testing/receiver';
import { agentWithListing, insertLead } from '../../../../test/factories';
import { resolvesToPublicAddresses } from '../../../platform/outbound/http';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/**
 * A fetch of deliver jobs is made as one batch (deliverJob.batchHandler → attemptDeliveries): its statements do not
 * grow with the number of jobs, and each job keeps its own outcome.
 */
describe('a fetch of delivery attempts, made together', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ work: false, jobs: [deliverJob], env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'deliver-batch-')) } });
  });
  afterAll(() => t.close());

  const deps = () => ({ db: t.db, config: t.config, logger: createLogger('silent'), queue: t.queue, ...deliveryTransports(t.config) });
  const isPublicTarget = (url: string) => resolvesToPublicAddresses(url, { allowLoopback: t.config.OUTBOUND_ALLOW_LOOPBACK });

  /** `leads` leads of one agent (email on, the webhook at `hook`): their messages, email and webhook each. */
  async function leadsFor(leads: number, hook: string) {
    const { agent, listing } = await agentWithListing(t.db);
    await saveSettings(t.db, deliveryTransports(t.config).box, agent.id, { webhookUrl: hook, webhookSecret: SECRET } as never, { isPublicTarget });
    for (let i = 0; i < leads; i++) {
      const lead = await insertLead(t.db, agent, listing, { name: `Buyer ${i}` });
      await t.db.transaction((trx) => enqueueLeadDeliveries({ queue: t.queue, config: t.config, caches: t.caches }, trx, lead));
    }
    const messages = (await t.db('notificationMessages').where({ agentId: agent.id }).orderBy('id')) as { id: string; channel: string; leadId: number }[];
    return { agent, messages: messages.map((m) => ({ ...m, id: Number(m.id) })) };
  }

  /** The SQL statements the database pool runs meanwhile (knex's query events, transactions' included). */
  async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    t.db.on('query', onQuery);
    try {
      return { result: await work(), statements };
    } finally {
      t.db.off('query', onQuery);
    }
  }

  it('makes N attempts in the same few statements as 2: one lease, one read each of settings and recipients, two for the sign-in links, one write of the attempts and messages', async () => {
    const rx = await startReceiver(() => ({ status: 204 }));
    try {
      const few = await leadsFor(1, rx.url());
      const many = await leadsFor(20, rx.url());
      expect(few.messages).toHaveLength(2);
      expect(many.messages).toHaveLength(40);

      const small = await statementsOf(() => attemptDeliveries(deps(), few.messages.map((m) => ({ messageId: m.id, attempt: 1 }))));
      // The agent's webhook secret, stored sealed, is opened once for the fetch's 20 webhooks.
      let opened = 0;
      const box = deliveryTransports(t.config).box;
      const counting = { seal: box.seal, open: (sealed: string) => (opened++, box.open(sealed)) };
      const large = await statementsOf(() => attemptDeliveries({ ...deps(), box: counting }, many.messages.map((m) => ({ messageId: m.id, attempt: 1 }))));
      expect(opened).toBe(1);
      expect(large.result.every((r) => !(r instanceof Error) && r.made && r.status === 'succeeded')).toBe(true);
      // Each attempt made once: a webhook per lead received (21 leads), 40 attempt rows, every message delivered.
      expect(rx.received.length).toBe(21);
      expect(await t.db('notificationDeliveries').whereIn('messageId', many.messages.map((m) => m.id)).count({ n: '*' }).first()).toEqual({ n: '40' });
      expect(await t.db('notificationMessages').where({ agentId: many.agent.id, status: 'delivered' }).count({ n: '*' }).first()).toEqual({ n: '40' });
      // Made one by one, 40 attempts were about 7 statements each (email: 9, with its recipient and sign-in link).
      expect(large.statements.length).toBe(small.statements.length);
      expect(large.statements.length).toBeLessThanOrEqual(10);
      // One lease of every message; one statement writes every attempt row and every message's new state.
      expect(large.statements.filter((s) => /^update "notification_messages"/.test(s))).toHaveLength(1);
      expect(large.statements.filter((s) => /notification_deliveries/.test(s))).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });

  it('keeps each attempt its own: a failed webhook schedules only its own retry, an attempt held elsewhere fails only its job', async () => {
    const rx = await startReceiver((req) => (JSON.parse(req.body).data.lead.name === 'Buyer 1' ? { status: 500, body: 'boom' } : { status: 204 }));
    try {
      const { messages } = await leadsFor(3, rx.url());
      const webhooks = messages.filter((m) => m.channel === 'webhook');
      const emails = messages.filter((m) => m.channel === 'email');
      // Another worker holds the first email's attempt 1 (its lease is live).
      await t.db('notificationMessages').where({ id: emails[0].id }).update({ leaseUntil: t.db.raw(`now() + interval '1 minute'`) });
      const before = await t.db.raw(`select count(*)::int as n from pgboss.job where name = 'notifications.deliver' and state = 'created'`);

      const asked = messages.map((m) => ({ messageId: m.id, attempt: 1 }));
      const settled = await deliverJob.batchHandler!(
        asked.map((a, i) => ({ payload: a, jobId: `job-${i}`, retryCount: 0, signal: new AbortController().signal, run: (work) => work() })),
        { db: t.db, logger: createLogger('silent'), config: t.config, queue: t.queue },
      );
      const byMessage = new Map(messages.map((m, i) => [m.id, settled[i]]));
      expect(byMessage.get(emails[0].id)).toBeInstanceOf(Error);
      expect((byMessage.get(emails[0].id) as Error).message).toMatch(/in flight elsewhere/);
      // Every other job is done, the failed webhook included (its failure is an attempt made and recorded).
      expect(messages.filter((m) => m.id !== emails[0].id).every((m) => byMessage.get(m.id) === undefined)).toBe(true);

      const failedLead = (await t.db('leads').where({ name: 'Buyer 1' }).orderBy('id', 'desc').first()).id;
      const failed = webhooks.find((m) => Number(m.leadId) === Number(failedLead))!;
      expect(await t.db('notificationMessages').where({ id: failed.id }).first()).toMatchObject({ status: 'pending', attempts: 1 });
      expect(await t.db('notificationDeliveries').where({ messageId: failed.id })).toMatchObject([{ status: 'failed', responseCode: 500, attempt: 1 }]);
      for (const m of webhooks.filter((w) => w.id !== failed.id)) expect(await t.db('notificationMessages').where({ id: m.id }).first()).toMatchObject({ status: 'delivered', attempts: 1 });
      // The held email: untouched, no attempt row.
      expect(await t.db('notificationMessages').where({ id: emails[0].id }).first()).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await t.db('notificationDeliveries').where({ messageId: emails[0].id })).toHaveLength(0);
      // One retry job, the failed webhook's attempt 2, after the schedule's first gap.
      const after = await t.db.raw(`select data, start_after from pgboss.job where name = 'notifications.deliver' and state = 'created' order by created_on desc limit 1`);
      const now = await t.db.raw(`select count(*)::int as n from pgboss.job where name = 'notifications.deliver' and state = 'created'`);
      expect(now.rows[0].n - before.rows[0].n).toBe(1);
      expect(after.rows[0].data).toMatchObject({ messageId: failed.id, attempt: 2 });
      expect(new Date(after.rows[0].start_after).getTime()).toBeGreaterThan(Date.now() + 3000);

      // The same fetch again (pg-boss may run jobs twice): nothing is sent or written twice.
      const again = await attemptDeliveries(deps(), asked);
      expect(again.filter((r) => !(r instanceof Error) && r.made)).toHaveLength(0);
      expect(rx.received).toHaveLength(3);
    } finally {
      await rx.close();
    }
  });
});

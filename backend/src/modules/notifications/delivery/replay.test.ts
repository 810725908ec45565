import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../../test/helpers';
import { wizardBrowser } from '../../../../test/factories';
import { newWebhookId } from './deliver-message';
import { replayDelivery } from './deliveries.service';

// Workers are off in this file: a replay queues its attempt and the message stays pending.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());
// Every case starts with unspent budgets.
afterEach(() => t.db('rate_limits').delete());

/** A webhook message of the agent, with its attempts as the delivery job would have logged them. */
async function delivery(agentId: number, messageStatus: 'pending' | 'delivered' | 'dead', attempts: ('succeeded' | 'failed' | 'dead' | 'disabled')[]): Promise<number[]> {
  const webhookId = newWebhookId();
  const [message] = await t
    .db('notificationMessages')
    .insert({
      agentId,
      kind: 'lead.test',
      channel: 'webhook',
      webhookId,
      payload: JSON.stringify({ type: 'lead.test' }),
      status: messageStatus,
      attempts: attempts.length,
      lastAttemptAllowed: 10,
      nextAttemptAt: messageStatus === 'pending' ? new Date(Date.now() + 300_000) : null,
    })
    .returning('id');
  const ids: number[] = [];
  for (const [i, status] of attempts.entries()) {
    const [row] = await t
      .db('notificationDeliveries')
      .insert({ agentId, messageId: message.id, kind: 'lead.test', channel: 'webhook', eventId: webhookId, attempt: i + 1, status, target: 'https://hooks.example.com/in', responseCode: status === 'succeeded' ? 200 : 503 })
      .returning('id');
    ids.push(Number(row.id));
  }
  return ids;
}

const replayUrl = (agentId: number, deliveryId: number) => `/api/agents/${agentId}/deliveries/${deliveryId}/replay`;

describe('replay: only dead or failed deliveries, never while retries are pending', () => {
  it('replays a dead delivery, and a failed attempt of a delivery that died later', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    const [dead] = await delivery(agent.id, 'dead', ['dead']);
    expect((await session.post(replayUrl(agent.id, dead)).expect(202)).body).toMatchObject({ attempt: 2 });
    const [failed] = await delivery(agent.id, 'dead', ['failed', 'dead']);
    await session.post(replayUrl(agent.id, failed)).expect(202);
    const listed = (await session.get(`/api/agents/${agent.id}/deliveries`).expect(200)).body.items;
    // Both are pending again now: no longer replayable.
    expect(listed.every((d: { replayable: boolean }) => !d.replayable)).toBe(true);
  });

  it('answers 409 while retries are pending, and for a delivery that succeeded, was delivered later or answered 410', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    const queued = async () => (await t.db.raw(`select count(*)::int as n from pgboss.job where name = 'notifications.deliver'`)).rows[0].n as number;
    const before = await queued();
    const [pending] = await delivery(agent.id, 'pending', ['failed']);
    const retrying = await session.post(replayUrl(agent.id, pending)).expect(409);
    expect(retrying.body).toMatchObject({ code: 'notifications.delivery_in_progress', nextAttemptAt: expect.any(String) });
    expect(retrying.body.message).toMatch(/still being retried automatically/);

    const [succeeded] = await delivery(agent.id, 'delivered', ['succeeded']);
    const [failedThenDelivered] = await delivery(agent.id, 'delivered', ['failed', 'succeeded']);
    for (const id of [succeeded, failedThenDelivered]) {
      expect((await session.post(replayUrl(agent.id, id)).expect(409)).body).toEqual({
        code: 'notifications.not_replayable',
        message: 'Only a dead or failed delivery can be replayed: this one was delivered.',
      });
    }
    const [gone] = await delivery(agent.id, 'dead', ['disabled']);
    expect((await session.post(replayUrl(agent.id, gone)).expect(409)).body.message).toMatch(/answered 410 Gone and was turned off/);

    // The log says which may be replayed, by the same rule.
    const listed = (await session.get(`/api/agents/${agent.id}/deliveries`).expect(200)).body.items as { id: number; replayable: boolean }[];
    expect(listed.filter((d) => d.replayable)).toEqual([]);
    // Nothing was queued.
    expect(await queued()).toBe(before);
  });
});

describe('replay limits', () => {
  it('allows an agent 10 replays a minute (refusals do not count); then 429 with Retry-After', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    const [delivered] = await delivery(agent.id, 'delivered', ['succeeded']);
    for (let i = 0; i < 3; i++) await session.post(replayUrl(agent.id, delivered)).expect(409);
    for (let i = 0; i < 10; i++) {
      const [dead] = await delivery(agent.id, 'dead', ['dead']);
      await session.post(replayUrl(agent.id, dead)).expect(202);
    }
    const [eleventh] = await delivery(agent.id, 'dead', ['dead']);
    const limited = await session.post(replayUrl(agent.id, eleventh)).expect(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Refused: still dead, nothing queued for it.
    expect((await t.db('notificationMessages').whereIn('id', t.db('notificationDeliveries').select('messageId').where({ id: eleventh })).first()).status).toBe('dead');
    // The budget is the agent's, whichever session or admin viewing as the agent asks.
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
    await admin.post(replayUrl(agent.id, eleventh)).expect(429);
    // Another agent has its own.
    const other = await wizardBrowser(t.newSession());
    const [theirs] = await delivery(other.agent.id, 'dead', ['dead']);
    await other.session.post(replayUrl(other.agent.id, theirs)).expect(202);
  });

  it('gives operators (ops CLI) the same rules and a budget of their own: 60 a minute per agent', async () => {
    const { session, agent } = await wizardBrowser(t.newSession());
    const [pending] = await delivery(agent.id, 'pending', ['failed']);
    await expect(replayDelivery({ db: t.db, queue: t.queue }, null, pending)).rejects.toMatchObject({ status: 409, code: 'notifications.delivery_in_progress' });
    const [delivered] = await delivery(agent.id, 'delivered', ['succeeded']);
    await expect(replayDelivery({ db: t.db, queue: t.queue }, null, delivered)).rejects.toMatchObject({ status: 409, code: 'notifications.not_replayable' });
    // The agent's own 10 spent…
    for (let i = 0; i < 10; i++) {
      const [dead] = await delivery(agent.id, 'dead', ['dead']);
      await session.post(replayUrl(agent.id, dead)).expect(202);
    }
    // …an operator may still replay, 60 a minute for this agent.
    for (let i = 0; i < 60; i++) {
      const [dead] = await delivery(agent.id, 'dead', ['dead']);
      await replayDelivery({ db: t.db, queue: t.queue }, null, dead);
    }
    const [more] = await delivery(agent.id, 'dead', ['dead']);
    await expect(replayDelivery({ db: t.db, queue: t.queue }, null, more)).rejects.toMatchObject({ status: 429 });
  });
});

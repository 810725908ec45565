import { z } from 'zod';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { defineEvent, defineJob, PermanentJobError } from './job';

/** Jobs used only by these tests: they record what ran in a table of their own. */
const calls: { name: string; n: number; attempt: number }[] = [];
const recordJob = defineJob({
  name: 'test.record',
  payload: z.object({ n: z.number().int() }),
  options: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30 },
  async handler({ n }, { retryCount }) {
    calls.push({ name: 'record', n, attempt: retryCount });
  },
});
const flakyJob = defineJob({
  name: 'test.flaky',
  payload: z.object({ n: z.number().int() }),
  // retryDelay 0: pg-boss makes the retry available at once, so the test needs no waiting room.
  options: { retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, deadLetter: 'test.dead' },
  async handler({ n }, { retryCount }) {
    calls.push({ name: 'flaky', n, attempt: retryCount });
    throw new Error('provider answered 503');
  },
});
const permanentJob = defineJob({
  name: 'test.permanent',
  payload: z.object({ n: z.number().int() }),
  options: { retryLimit: 5, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, deadLetter: 'test.dead' },
  async handler({ n }) {
    calls.push({ name: 'permanent', n, attempt: 0 });
    throw new PermanentJobError('invalid parameter');
  },
});

/** An event and a queue that takes it: the publisher names the event, never the queue. */
const somethingHappened = defineEvent({ name: 'test.something-happened', payload: z.object({ n: z.number().int() }) });
const listenerJob = defineJob({
  name: 'test.listener',
  payload: z.object({ n: z.number().int() }),
  subscribe: [somethingHappened],
  options: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30 },
  async handler({ n }) {
    calls.push({ name: 'listener', n, attempt: 0 });
  },
});

/** A queue run a fetch at a time (batchHandler): n 2 fails on its first run, n 3 fails permanently, the rest succeed. */
const fetches: number[][] = [];
const batchJob = defineJob({
  name: 'test.batch',
  payload: z.object({ n: z.number().int() }),
  options: { retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, deadLetter: 'test.dead' },
  async handler() {
    throw new Error('a batch queue is run by its batchHandler');
  },
  async batchHandler(jobs) {
    fetches.push(jobs.map((j) => j.payload.n));
    return jobs.map((j) => {
      calls.push({ name: 'batch', n: j.payload.n, attempt: j.retryCount });
      if (j.payload.n === 2 && j.retryCount === 0) return new Error('receiver answered 503');
      if (j.payload.n === 3) return new PermanentJobError('no longer configured');
      return undefined;
    });
  },
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ work: true, jobs: [recordJob, flakyJob, permanentJob, listenerJob, batchJob] });
});
afterAll(() => t.close());
beforeEach(() => {
  calls.length = 0;
});

/** Wait for pg-boss to report the job in one of `states` (polling its own table, no fixed sleeps). */
async function waitForState(queue: string, id: string, states: string[], timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await t.queue.boss.getJobById(queue, id);
    if (job && states.includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.state ?? 'missing'}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function deadLetters() {
  const rows = await t.db.raw(`select data from pgboss.job where name = 'test.dead'`);
  return rows.rows.map((r: { data: { n: number } }) => r.data.n).sort();
}

describe('queue', () => {
  it('runs a sent job', async () => {
    const id = await t.queue.send(recordJob, { n: 1 });
    await waitForState('test.record', id!, ['completed']);
    expect(calls).toEqual([{ name: 'record', n: 1, attempt: 0 }]);
  });

  it('refuses an invalid payload at send time', async () => {
    await expect(t.queue.send(recordJob, { n: 'one' } as never)).rejects.toThrow();
  });

  it('a job enqueued in a rolled-back transaction never exists', async () => {
    let id: string | null = null;
    await expect(
      t.db.transaction(async (trx) => {
        await trx('agents').insert({ name: 'Rolled Back', state: 'FL' });
        id = await t.queue.send(recordJob, { n: 2 }, { trx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(id).toEqual(expect.any(String));
    expect(await t.queue.boss.getJobById('test.record', id!)).toBeNull();
    expect(await t.db('agents').where({ name: 'Rolled Back' })).toHaveLength(0);
  });

  it('a job enqueued in a committed transaction runs after the commit', async () => {
    const id = await t.db.transaction(async (trx) => {
      await trx('agents').insert({ name: 'Committed', state: 'FL' });
      return t.queue.send(recordJob, { n: 3 }, { trx });
    });
    await waitForState('test.record', id!, ['completed']);
    expect(calls).toEqual([{ name: 'record', n: 3, attempt: 0 }]);
  });

  it('sendMany enqueues several jobs in the caller\'s transaction: none after a rollback, all run after a commit', async () => {
    let rolledBack: string[] = [];
    await expect(
      t.db.transaction(async (trx) => {
        rolledBack = await t.queue.sendMany(recordJob, [{ n: 6 }, { n: 7 }], { trx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(rolledBack).toHaveLength(2);
    for (const id of rolledBack) expect(await t.queue.boss.getJobById('test.record', id)).toBeNull();

    const ids = await t.db.transaction((trx) => t.queue.sendMany(recordJob, [{ n: 8 }, { n: 9 }], { trx }));
    expect(ids).toHaveLength(2);
    for (const id of ids) await waitForState('test.record', id, ['completed']);
    expect(calls.map((c) => c.n).sort()).toEqual([8, 9]);
  });

  it('sendMany gives each job the queue\'s options, as send does, and refuses a bad payload before enqueuing any', async () => {
    const [one] = await t.queue.sendMany(permanentJob, [{ n: 10 }]);
    const other = (await t.queue.send(permanentJob, { n: 11 }))!;
    // Stored as send stores it: the queue's retry, expiry and dead-letter options (running the job does not change them).
    const pick = (j: Awaited<ReturnType<typeof t.queue.boss.getJobById>>) =>
      j && { retryLimit: j.retryLimit, retryDelay: j.retryDelay, retryBackoff: j.retryBackoff, expireInSeconds: j.expireInSeconds, deadLetter: j.deadLetter, priority: j.priority, policy: j.policy };
    const many = pick(await t.queue.boss.getJobById('test.permanent', one));
    expect(many).toEqual({ retryLimit: 5, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, deadLetter: 'test.dead', priority: 0, policy: expect.any(String) });
    expect(many).toEqual(pick(await t.queue.boss.getJobById('test.permanent', other)));
    await expect(t.queue.sendMany(recordJob, [{ n: 12 }, { n: 'x' } as never])).rejects.toThrow();
    expect(await t.queue.sendMany(recordJob, [])).toEqual([]);
    // Both end (dead-lettered at once) before the next test counts calls.
    await waitForState('test.permanent', one, ['failed']);
    await waitForState('test.permanent', other, ['failed']);
    expect(calls.filter((c) => c.n === 12)).toEqual([]);
  });

  it('retries a failing job, then dead-letters it', async () => {
    const id = await t.queue.send(flakyJob, { n: 4 });
    await waitForState('test.flaky', id!, ['failed']);
    expect(calls.map((c) => c.attempt)).toEqual([0, 1, 2]);
    expect(await deadLetters()).toContain(4);
  });

  it('sends a permanent failure straight to the dead-letter queue, without retries', async () => {
    const id = await t.queue.send(permanentJob, { n: 5 });
    await waitForState('test.permanent', id!, ['failed']);
    expect(calls).toHaveLength(1);
    expect(await deadLetters()).toContain(5);
  });

  it('a batch handler gets the whole fetch and settles each job alone: one retried, one dead-lettered, the rest done', async () => {
    const ids = await t.queue.sendMany(batchJob, [{ n: 31 }, { n: 2 }, { n: 3 }, { n: 34 }]);
    const [a, flaky, permanent, d] = ids;
    await waitForState('test.batch', a, ['completed']);
    await waitForState('test.batch', d, ['completed']);
    // The retry of the failed one runs alone and succeeds; the permanent one goes to the dead-letter queue at once.
    expect((await waitForState('test.batch', flaky, ['completed'])).retryCount).toBe(1);
    await waitForState('test.batch', permanent, ['failed']);
    expect(fetches[0].sort()).toEqual([2, 3, 31, 34]);
    expect(calls.filter((c) => c.n === 31 || c.n === 34)).toHaveLength(2);
    expect(calls.filter((c) => c.n === 2).map((c) => c.attempt)).toEqual([0, 1]);
    expect(calls.filter((c) => c.n === 3)).toHaveLength(1);
    expect(await deadLetters()).toContain(3);
  });

  it('publish sends a job to each subscribed queue in the caller\'s transaction: none after a rollback', async () => {
    await expect(
      t.db.transaction(async (trx) => {
        await t.queue.publish(somethingHappened, { n: 20 }, { trx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await t.db.transaction((trx) => t.queue.publish(somethingHappened, { n: 21 }, { trx }));
    const [job] = (await t.db.raw(`select id from pgboss.job where name = 'test.listener'`)).rows as { id: string }[];
    await waitForState('test.listener', job.id, ['completed']);
    expect(calls).toEqual([{ name: 'listener', n: 21, attempt: 0 }]);
    await expect(t.queue.publish(somethingHappened, { n: 'x' } as never)).rejects.toThrow();
  });
});

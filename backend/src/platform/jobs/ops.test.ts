import { z } from 'zod';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { defineJob } from './job';
import { deadLetterName } from './queue';
import { listFailed, listQueues, redrive, retryJob } from './ops';

let healthy = false;
const runs: number[] = [];
const deliverJob = defineJob({
  name: 'test.deliver',
  payload: z.object({ n: z.number() }),
  options: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 30, deadLetter: deadLetterName('test.deliver') },
  async handler({ n }) {
    runs.push(n);
    if (!healthy) throw new Error('endpoint answered 500');
  },
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ work: true, jobs: [deliverJob] });
});
afterAll(() => t.close());

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('lists, retries and redrives failed jobs', async () => {
  const a = (await t.queue.send(deliverJob, { n: 1 }))!;
  await t.queue.send(deliverJob, { n: 2 });
  const failed = await until(() => listFailed(t.db, { queue: 'test.deliver' }), (f) => f.filter((j) => j.queue === 'test.deliver').length === 2);
  expect(failed.find((j) => j.id === a)).toMatchObject({ queue: 'test.deliver', error: 'endpoint answered 500' });
  const dead = failed.filter((j) => j.queue === deadLetterName('test.deliver'));
  expect(dead.map((j) => j.sourceQueue)).toEqual(['test.deliver', 'test.deliver']);

  const summary = await listQueues(t.db);
  expect(summary.find((q) => q.queue === 'test.deliver')).toMatchObject({ failed: 2 });

  healthy = true;
  expect(await retryJob(t.queue.boss, 'test.deliver', a)).toBe(true);
  await until(() => t.queue.boss.getJobById('test.deliver', a), (j) => j?.state === 'completed');

  runs.length = 0;
  expect(await redrive(t.db, t.queue.boss, deadLetterName('test.deliver'))).toEqual({ moved: 2 });
  await until(async () => runs.slice().sort(), (r) => r.length === 2);
  expect(runs.sort()).toEqual([1, 2]);
  const left = await listFailed(t.db, { queue: deadLetterName('test.deliver') });
  expect(left.filter((j) => j.queue === deadLetterName('test.deliver'))).toEqual([]);
});

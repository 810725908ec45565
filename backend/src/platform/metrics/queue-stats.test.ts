import { createTestDatabase } from '../../../test/helpers';
import { createDb, type Db } from '../db/knex';
import { sharedQueueCounts, type PgBossQueueRow } from './queue-stats';

describe('job queue counts shared by the processes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { max: 4 });
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('one process reads pg-boss per 10 s; the others read its snapshot, with the dead letters of each queue', async () => {
    let reads = 0;
    let queued = 7;
    const getQueues = async (): Promise<PgBossQueueRow[]> => {
      reads += 1;
      return [
        { name: 'campaigns.launch', queuedCount: queued, activeCount: 2, failedCount: 1 },
        { name: 'campaigns.launch.dead', queuedCount: 3, activeCount: 0, failedCount: 0 },
        { name: 'notifications.deliver', queuedCount: 0, activeCount: 0, failedCount: 0 },
      ];
    };
    const queues = [{ name: 'campaigns.launch', deadLetter: 'campaigns.launch.dead' }, { name: 'notifications.deliver' }];
    // Three processes, each scraped a few times at once.
    const processes = [0, 1, 2].map(() => sharedQueueCounts({ db, getQueues, queues }));
    const snapshots = await Promise.all(processes.flatMap((read) => [read(), read(), read()]));
    expect(reads).toBe(1);
    for (const s of snapshots.filter((x) => x.counts.length > 0)) {
      expect(s.counts).toEqual([
        { queue: 'campaigns.launch', queued: 7, active: 2, failed: 1, deadLettered: 3 },
        { queue: 'notifications.deliver', queued: 0, active: 0, failed: 0, deadLettered: 0 },
      ]);
    }
    const later = await processes[2]();
    expect(later.counts[0].queued).toBe(7);
    expect(Date.now() - later.takenAt.getTime()).toBeLessThan(10_000);
    expect(reads).toBe(1);

    // Ten seconds on, the next scrape (any process) refreshes it.
    queued = 9;
    await db.raw(`update metric_snapshots set claimed_at = claimed_at - interval '11 seconds'`);
    expect((await processes[1]()).counts[0].queued).toBe(9);
    expect((await processes[0]()).counts[0].queued).toBe(9);
    expect(reads).toBe(2);
  });

  it('comes back after the (unlogged) table lost its row', async () => {
    await db('metric_snapshots').del();
    const read = sharedQueueCounts({ db, getQueues: async () => [{ name: 'q', queuedCount: 1, activeCount: 0, failedCount: 0 }], queues: [{ name: 'q' }] });
    expect((await read()).counts).toEqual([{ queue: 'q', queued: 1, active: 0, failed: 0, deadLettered: 0 }]);
  });
});

import type { Db } from '../db/knex';

/** The table of shared snapshots (migration 20261127040000_platform_create_metric_snapshots). */
export const SNAPSHOT_TABLE = 'metric_snapshots';
export const QUEUE_SNAPSHOT = 'job-queues';

export interface QueueCounts {
  queue: string;
  /** Waiting to run (pg-boss `queuedCount`: ready now or deferred to later, retries included). */
  queued: number;
  active: number;
  /** Failed and kept (pg-boss's rolling count within the queue's retention). */
  failed: number;
  /** Jobs waiting in the queue's dead-letter queue. */
  deadLettered: number;
}

export interface QueueSnapshot {
  counts: QueueCounts[];
  /** When the counts were read from pg-boss. */
  takenAt: Date;
}

/** What pg-boss's getQueues() answers, as far as the counts go. */
export interface PgBossQueueRow {
  name: string;
  queuedCount: number;
  activeCount: number;
  failedCount: number;
}

/**
 * pg-boss's per-queue counts, shared by every process: whichever process is scraped first once the last
 * refresh is `maxAgeSeconds` old takes the next one (a conditional UPDATE of `claimed_at`: one winner), reads
 * pg-boss's getQueues() and writes the snapshot with its time; every other scrape reads the stored one (a
 * refresh that failed leaves the older counts, whose age the metrics show). N processes scraped every 15 s cost
 * one getQueues() per `maxAgeSeconds`, not N; the counts shown are at most that much (and a scrape) old.
 */
export function sharedQueueCounts(opts: {
  db: Db;
  getQueues: () => Promise<PgBossQueueRow[]>;
  /** The product's queues, each with its dead-letter queue if it has one. */
  queues: { name: string; deadLetter?: string }[];
  maxAgeSeconds?: number;
}): () => Promise<QueueSnapshot> {
  const { db } = opts;
  const maxAge = opts.maxAgeSeconds ?? 10;
  return async () => {
    // An upsert: the row comes back by itself after a crash has emptied the (unlogged) table.
    const claimed = await db.raw(
      `insert into ${SNAPSHOT_TABLE} (name, claimed_at) values (?, now())
       on conflict (name) do update set claimed_at = now()
        where ${SNAPSHOT_TABLE}.claimed_at < now() - make_interval(secs => ?)
       returning name`,
      [QUEUE_SNAPSHOT, maxAge],
    );
    if (claimed.rows.length > 0) {
      const rows = await opts.getQueues();
      const byName = new Map(rows.map((r) => [r.name, r]));
      const counts = opts.queues.map((q) => {
        const row = byName.get(q.name);
        const dead = q.deadLetter ? byName.get(q.deadLetter) : undefined;
        return { queue: q.name, queued: Number(row?.queuedCount ?? 0), active: Number(row?.activeCount ?? 0), failed: Number(row?.failedCount ?? 0), deadLettered: Number(dead?.queuedCount ?? 0) };
      });
      const [stored] = (await db(SNAPSHOT_TABLE)
        .where({ name: QUEUE_SNAPSHOT })
        .update({ data: JSON.stringify(counts), takenAt: db.fn.now() })
        .returning('takenAt')) as { takenAt: Date }[];
      return { counts, takenAt: new Date(stored.takenAt) };
    }
    const row = (await db(SNAPSHOT_TABLE).where({ name: QUEUE_SNAPSHOT }).first('data', 'takenAt')) as { data: QueueCounts[]; takenAt: Date } | undefined;
    return { counts: row?.data ?? [], takenAt: new Date(row?.takenAt ?? 0) };
  };
}

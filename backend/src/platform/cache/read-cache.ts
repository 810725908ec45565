import { LRUCache } from 'lru-cache';
import type { Db } from '../db/knex';

/**
 * The longest a process may answer a read from memory (DESIGN §3 scaling out: several app processes on
 * one PostgreSQL). A write made by another process is seen within this time; writes made through this
 * process's pool are seen at once (below). It matches the session cache's bound.
 */
export const READ_CACHE_MAX_TTL_MS = 5_000;

/** One named cache: `get` answers from memory or runs `load` once for all concurrent callers. */
export interface ReadCache<V> {
  get(key: string, load: () => Promise<V>): Promise<V>;
  clear(): void;
}

export interface ReadCaches {
  /** The cache called `name`, made on first use: it forgets everything when this process writes one of `tables`. */
  named<V>(name: string, tables: readonly string[]): ReadCache<V>;
  readonly ttlMs: number;
}

/** A statement that changes rows of a table: `insert into "t"`, `update t`, `delete from "t"`, `truncate t`, also inside a CTE. */
function writePattern(tables: readonly string[]): RegExp {
  const names = tables.map((t) => t.replace(/[^a-z0-9_]/gi, '')).join('|');
  return new RegExp(`\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+(?:only\\s+)?"?(?:public"?\\."?)?(?:${names})"?(?![a-z0-9_])`, 'i');
}

class TableCache<V> implements ReadCache<V> {
  private readonly lru: LRUCache<string, { value: V }>;
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped by every clear: a load that began before it must not store what it read. */
  private generation = 0;

  constructor(ttlMs: number, max: number) {
    this.lru = new LRUCache({ max, ttl: ttlMs, ttlAutopurge: false });
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const promise = load().then(
      (value) => {
        if (this.generation === generation) this.lru.set(key, { value });
        return value;
      },
    );
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    }
  }

  clear(): void {
    this.generation++;
    this.lru.clear();
    // A caller arriving now must not join a load that may have read the old rows.
    this.loading.clear();
  }
}

class PassThrough<V> implements ReadCache<V> {
  get(_key: string, load: () => Promise<V>): Promise<V> {
    return load();
  }
  clear(): void {}
}

/** Statement texts whose emptied caches are remembered (`createReadCaches`), and the longest remembered. */
const EMPTIED_BY_MAX_TEXTS = 1_000;
const EMPTIED_BY_MAX_TEXT = 8_192;

/**
 * Short-lived read caches for the hot agent-scoped reads (issue: speed). Each holds answers for at most
 * `ttlMs` (≤ READ_CACHE_MAX_TTL_MS), so a stale value lasts a few seconds at most, and is emptied whenever
 * a statement through this process's pool writes one of its tables, before it runs and again after it
 * returns (a read racing the write cannot put the old rows back: see `generation`). `ttlMs` 0 turns caching off.
 */
export function createReadCaches(db: Db, ttlMs: number, { max = 5_000 }: { max?: number } = {}): ReadCaches {
  const ttl = Math.max(0, Math.min(ttlMs, READ_CACHE_MAX_TTL_MS));
  const caches = new Map<string, { cache: ReadCache<unknown>; pattern: RegExp }>();
  // The caches a statement empties, worked out once per statement text: a process sends the same texts again and
  // again (knex's carry placeholders, named statements are constants), and testing every cache's pattern against
  // each (a lead's batch sends seven, pg-boss's insert among them, each announced twice) cost a lead POST tens of µs.
  // Forgotten whenever a cache is added; long texts (a bulk insert's) are not kept, and only the last
  // EMPTIED_BY_MAX_TEXTS texts are.
  const emptied = new LRUCache<string, ReadCache<unknown>[]>({ max: EMPTIED_BY_MAX_TEXTS });
  const emptiedBy = (sql: string): ReadCache<unknown>[] => {
    const known = emptied.get(sql);
    if (known) return known;
    const found: ReadCache<unknown>[] = [];
    for (const { cache, pattern } of caches.values()) if (pattern.test(sql)) found.push(cache);
    if (sql.length <= EMPTIED_BY_MAX_TEXT) emptied.set(sql, found);
    return found;
  };
  if (ttl > 0) {
    // A write inside a transaction is seen by other connections only once it commits. Its caches are
    // emptied at the statement and again when the transaction's connection goes back to the pool (after
    // COMMIT or ROLLBACK): a read that ran in between cannot keep the old rows.
    const inTransaction = new Map<string, Set<ReadCache<unknown>>>();
    const onQuery = (q: { sql?: string; __knexUid?: string; __knexTxId?: string }) => {
      if (!q.sql || /^\s*select\b/i.test(q.sql)) return;
      for (const cache of emptiedBy(q.sql)) {
        cache.clear();
        if (q.__knexTxId && q.__knexUid) {
          let pending = inTransaction.get(q.__knexUid);
          if (!pending) inTransaction.set(q.__knexUid, (pending = new Set()));
          pending.add(cache);
        }
      }
    };
    db.on('query', onQuery);
    db.on('query-response', (_res: unknown, q: { sql?: string }) => onQuery(q));
    db.on('query-error', (_err: unknown, q: { sql?: string }) => onQuery(q));
    const pool = (db as unknown as { client: { pool?: { on(event: 'release', fn: (conn: { __knexUid?: string }) => void): void } } }).client.pool;
    if (!pool) throw new Error('read caches need the database pool (knex client.pool) to see transactions end');
    pool.on('release', (connection) => {
      const pending = connection.__knexUid ? inTransaction.get(connection.__knexUid) : undefined;
      if (!pending) return;
      inTransaction.delete(connection.__knexUid!);
      for (const cache of pending) cache.clear();
    });
  }
  return {
    ttlMs: ttl,
    named<V>(name: string, tables: readonly string[]): ReadCache<V> {
      let entry = caches.get(name);
      if (!entry) {
        entry = { cache: ttl > 0 ? new TableCache<unknown>(ttl, max) : new PassThrough<unknown>(), pattern: writePattern(tables) };
        caches.set(name, entry);
        emptied.clear();
      }
      return entry.cache as ReadCache<V>;
    },
  };
}

import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { Model, knexSnakeCaseMappers } from 'objection';
import { migrations } from '../../migrations';
import { PipelinedConnection, asSent, runPipelinedTransaction, type PipelinedTransaction, type SqlExecutor, type StatementNames } from './pipelined-connection';

export type Db = Knex;

/** Knex migration source over the statically imported list: works the same from ts (tests) and js (dist). */
const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

export interface DbOptions {
  min?: number;
  max?: number;
  /**
   * `transaction`: the URL is a transaction pooler's (PgBouncer in transaction mode, config DATABASE_POOLER): no
   * statement is prepared by name (a name would not outlive its transaction's server connection).
   */
  pooler?: 'none' | 'transaction';
}

const knexConfig = (connectionString: string, pool: Knex.PoolConfig): Knex.Config => ({
  client: 'pg',
  connection: { connectionString, application_name: 'listing-ads' },
  pool,
  migrations: { migrationSource, tableName: 'knex_migrations' },
  // camelCase in code, snake_case in the database.
  ...knexSnakeCaseMappers(),
});

export function createDb(connectionString: string, opts: DbOptions = {}): Db {
  const db = knexFactory(knexConfig(connectionString, { min: opts.min ?? 0, max: opts.max ?? 10 }));
  Model.knex(db);
  const names: StatementNames = opts.pooler === 'transaction' ? 'unnamed' : 'named';
  // Beside the pool: the pipelined connection (small independent statements: the rate-limit counts) and a
  // small pool of pipelined connections for pipelined transactions, each opened at its first use.
  const side: Side = { connectionString, names, counts: new PipelinedConnection({ connectionString, application_name: 'listing-ads-pipeline' }, names), held: new Set() };
  sides.set(db, side);
  // A transaction's client shares its db's config object: sqlOf(trx) finds the side by it.
  sidesByConfig.set(db.client.config as object, side);
  // knex's destroy (`db.destroy()`) ends in its client's: the side connections close with the pool.
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroyPool = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    // Writes accepted before the close land first (a lead whose request went away meanwhile included).
    while (side.held.size) await Promise.allSettled([...side.held]);
    const transactions = side.transactions;
    side.transactions = undefined;
    await Promise.all([side.counts.end(), transactions?.end()]);
    return destroyPool(callback);
  };
  return db;
}

interface Side {
  connectionString: string;
  names: StatementNames;
  counts: PipelinedConnection;
  transactions?: pg.Pool;
  /** Work that `destroy()` waits for before it closes anything (`holdOpen`). */
  held: Set<Promise<unknown>>;
}
const sides = new WeakMap<Db, Side>();
const sidesByConfig = new WeakMap<object, Side>();

function sideOf(db: Db): Side {
  const side = sides.get(db);
  if (!side) throw new Error('this database was not made by createDb');
  return side;
}

/** The pipelined connection beside `db`'s pool (platform/db/pipelined-connection.ts). */
export function pipelineOf(db: Db): PipelinedConnection {
  return sideOf(db).counts;
}

/**
 * Keeps `db` open until `work` has settled: `db.destroy()` (a shutdown) waits for it before it closes the pools
 * and the pipelined connections. For writes that outlive their caller, such as a lead waiting in the group
 * commit whose request has gone away: the write still lands, on open connections.
 */
export function holdOpen<T>(db: Db, work: Promise<T>): Promise<T> {
  const { held } = sideOf(db);
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  held.add(settled);
  void settled.then(() => held.delete(settled));
  return work;
}

/**
 * Runs `work` as a pipelined transaction (platform/db/pipelined-connection.ts) on a connection of `db`'s
 * database beside its pool. Its writes empty the read caches of `db` as knex's own do: each statement is
 * announced as a knex 'query' event when sent, and again once the transaction has ended.
 */
export function pipelinedTransaction<T>(db: Db, work: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
  const side = sideOf(db);
  if (!side.transactions) {
    side.transactions = new pg.Pool({ connectionString: side.connectionString, application_name: 'listing-ads-pipeline', pipeline: true, max: 4 });
    // An idle connection that breaks leaves the pool by itself; the next transaction opens another.
    side.transactions.on('error', () => undefined);
  }
  return runPipelinedTransaction(side.transactions, (sql) => db.emit('query', { sql }), work, side.names);
}

/**
 * A knex transaction's own connection as a SqlExecutor: statements run on it one after another, in the
 * order sent (a connection that is not in pipeline mode takes one at a time).
 */
export async function sqlOf(trx: Knex.Transaction): Promise<SqlExecutor> {
  // A transaction's client always hands back the transaction's one connection.
  const connection = (await trx.client.acquireConnection()) as pg.ClientBase;
  const names = sidesByConfig.get(trx.client.config as object)?.names ?? 'named';
  let last: Promise<unknown> = Promise.resolve();
  return {
    query<R extends pg.QueryResultRow>(config: pg.QueryConfig) {
      const result = last.then(() => connection.query<R>(asSent(config, names)));
      last = result.catch(() => undefined);
      return result;
    },
  };
}

/** A pool's connections as the metrics show them (platform/metrics/pool-metrics.ts). */
export interface PoolStats {
  pool: string;
  /** Connections lent out (for a pipelined connection: 1 while statements are in flight). */
  inUse: number;
  idle: number;
  /** Callers waiting for a connection (for a pipelined connection: statements in flight). */
  waiting: number;
}

/**
 * The pools of `db` now: knex's (tarn), the pipelined connection of the rate-limit counts, and the pool of
 * pipelined transactions (the leads' group commit), once opened. The job queue's pool is the queue's own
 * (platform/jobs/queue.ts `poolStats`).
 */
export function poolStatsOf(db: Db): PoolStats[] {
  const side = sideOf(db);
  const stats: PoolStats[] = [];
  const tarn = (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
  if (tarn) stats.push({ pool: 'knex', inUse: tarn.numUsed(), idle: tarn.numFree(), waiting: tarn.numPendingAcquires() });
  const counts = side.counts.stats();
  stats.push({ pool: 'pipelined-counts', inUse: counts.inFlight > 0 ? 1 : 0, idle: counts.open && counts.inFlight === 0 ? 1 : 0, waiting: counts.inFlight });
  const tx = side.transactions;
  stats.push({ pool: 'pipelined-transactions', inUse: tx ? tx.totalCount - tx.idleCount : 0, idle: tx?.idleCount ?? 0, waiting: tx?.waitingCount ?? 0 });
  return stats;
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest();
  return applied as string[];
}

/**
 * Migrates the database at `connectionString` on a connection of its own (DATABASE_DIRECT_URL: PostgreSQL past
 * the pooler), closed afterwards. The app's models stay bound to the app's db.
 */
export async function migrateLatestAt(connectionString: string): Promise<string[]> {
  const db = knexFactory(knexConfig(connectionString, { min: 0, max: 1 }));
  try {
    const [, applied] = await db.migrate.latest();
    return applied as string[];
  } finally {
    await db.destroy();
  }
}

/** The migrations this build has that the database has not applied yet (all of them before the first). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  let applied: Set<string>;
  try {
    const rows: { name: string }[] = await db('knex_migrations').select('name');
    applied = new Set(rows.map((r) => r.name));
  } catch (err) {
    // 42P01: no migrations table yet.
    if ((err as { code?: string }).code !== '42P01') throw err;
    applied = new Set();
  }
  return Object.keys(migrations).sort().filter((name) => !applied.has(name));
}

/**
 * For a process that does not migrate (MIGRATE_ON_START=false): waits until another (the release's migrate
 * Job) has applied every migration this build has, so it never serves on an older schema. Rechecks every
 * `intervalMs`; `onWait` hears the pending ones each time.
 */
export async function waitForSchema(db: Db, opts: { intervalMs?: number; onWait?: (pending: string[]) => void; signal?: AbortSignal } = {}): Promise<void> {
  for (;;) {
    const pending = await pendingMigrations(db);
    if (pending.length === 0) return;
    opts.onWait?.(pending);
    opts.signal?.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 2000));
  }
}

import knexFactory, { type Knex } from 'knex';
import { Model, knexSnakeCaseMappers } from 'objection';
import { migrations } from '../../migrations';
import { PipelinedConnection } from './pipelined-connection';

export type Db = Knex;

/** Knex migration source over the statically imported list: works the same from ts (tests) and js (dist). */
const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

export function createDb(connectionString: string, pool: { min?: number; max?: number } = {}): Db {
  const db = knexFactory({
    client: 'pg',
    connection: { connectionString, application_name: 'listing-ads' },
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    migrations: { migrationSource, tableName: 'knex_migrations' },
    // camelCase in code, snake_case in the database.
    ...knexSnakeCaseMappers(),
  });
  Model.knex(db);
  // The database's pipelined connection (small independent statements: the rate-limit counts), opened at
  // its first statement and closed with the pool.
  const pipeline = new PipelinedConnection({ connectionString, application_name: 'listing-ads-pipeline' });
  pipelines.set(db, pipeline);
  // knex's destroy (`db.destroy()`) ends in its client's: the pipelined connection closes with the pool.
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroyPool = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    await pipeline.end();
    return destroyPool(callback);
  };
  return db;
}

const pipelines = new WeakMap<Db, PipelinedConnection>();

/** The pipelined connection beside `db`'s pool (platform/db/pipelined-connection.ts). */
export function pipelineOf(db: Db): PipelinedConnection {
  const pipeline = pipelines.get(db);
  if (!pipeline) throw new Error('pipelineOf: this database was not made by createDb');
  return pipeline;
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest();
  return applied as string[];
}

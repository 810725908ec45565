import knexFactory, { type Knex } from 'knex';
import { Model, knexSnakeCaseMappers } from 'objection';
import { migrations } from '../../migrations';

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
  return db;
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest();
  return applied as string[];
}

import { loadConfig, ConfigError } from './platform/config';
import { createLogger } from './platform/logger';
import { createDb, migrateLatest, pendingMigrations } from './platform/db/knex';
import { createQueue } from './platform/jobs/queue';
import { jobs } from './jobs';

/**
 * `node backend/dist/migrate.js` (`npm run migrate`): brings the database at DATABASE_URL (or DATABASE_DIRECT_URL,
 * PostgreSQL past the pooler, when set) up to this build —
 * the knex migrations, then pg-boss's schema and the product's queues — and exits (0 when done). A release
 * runs it once before its processes start (Kubernetes: the migrate Job), and those run with
 * MIGRATE_ON_START=false: they wait for the schema instead of racing to apply it. `npm start` and compose keep
 * migrating at start (one process at a time takes knex's migration lock).
 */
async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 78;
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  if (!config.DATABASE_URL) {
    logger.error('migrate: DATABASE_URL is not set (the embedded database is migrated by `npm start` itself)');
    return 78;
  }
  // Past a transaction pooler, PostgreSQL itself (DATABASE_DIRECT_URL): DDL and pg-boss's schema lock need no pooled
  // connection. Without a pooler, DATABASE_URL is PostgreSQL.
  const url = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;
  const db = createDb(url, { max: 2 });
  try {
    const before = await pendingMigrations(db);
    const applied = await migrateLatest(db);
    logger.info({ applied, pending: before.length }, applied.length ? 'migrate: migrations applied' : 'migrate: the schema is current');
    // pg-boss installs or upgrades its own schema at start, and the queues are created: no web process races it.
    const queue = createQueue({ connectionString: url, db, logger, config, jobs, work: false });
    await queue.start();
    await queue.stop();
    logger.info('migrate: job queues ready');
    return 0;
  } catch (err) {
    logger.fatal({ err }, 'migrate: failed');
    return 1;
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  void main().then((code) => {
    process.exitCode = code;
  });
}

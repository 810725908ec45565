import crypto from 'node:crypto';
import supertest from 'supertest';
import { Client } from 'pg';
import { loadConfig, type Config } from '../src/platform/config';
import { createLogger } from '../src/platform/logger';
import { createDb, type Db } from '../src/platform/db/knex';
import { createQueue, type Queue } from '../src/platform/jobs/queue';
import { createReadCaches, type ReadCaches } from '../src/platform/cache/read-cache';
import type { JobDefinition } from '../src/platform/jobs/job';
import { jobs as allJobs } from '../src/jobs';
import { createApp } from '../src/app';
import { TEMPLATE_DB } from './constants';

export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

/** A statement on the test server's maintenance database (create or drop databases). */
export async function adminQuery(sql: string) {
  const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database, copied from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `t_${process.env.JEST_WORKER_ID ?? 0}_${crypto.randomBytes(5).toString('hex')}`;
  await adminQuery(`create database ${name} template ${TEMPLATE_DB}`);
  return {
    name,
    url: `${process.env.TEST_PG_URL_PREFIX}${name}`,
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

export interface TestContext {
  config: Config;
  db: Db;
  queue: Queue;
  /** Read caches for calling services directly (the app has its own; both are emptied by writes through `db`). */
  caches: ReadCaches;
  /** One-off requests (no cookie jar). */
  request: ReturnType<typeof supertest>;
  /** A browser-like client that keeps its session cookie. */
  newSession: () => ReturnType<typeof supertest.agent>;
  close: () => Promise<void>;
}

/**
 * The URL the app under test uses for `database`: the database itself, or, in the run through PgBouncer
 * (TEST_POOLER=pgbouncer, scripts/test-pgbouncer.mjs), the same database through a PgBouncer in transaction mode.
 */
export function appDatabaseUrl(database: { url: string; name: string }): { url: string; pooler: 'none' | 'transaction' } {
  const bouncer = process.env.TEST_PGBOUNCER_URL_PREFIX;
  return bouncer ? { url: `${bouncer}${database.name}`, pooler: 'transaction' } : { url: database.url, pooler: 'none' };
}

export async function createTestContext(opts: { env?: Record<string, string>; work?: boolean; jobs?: JobDefinition<any>[] } = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const appDb = appDatabaseUrl(database);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: appDb.url,
    DATABASE_POOLER: appDb.pooler,
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123',
    ENCRYPTION_KEY: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    ...opts.env,
  });
  const logger = createLogger(config.LOG_LEVEL);
  const db = createDb(appDb.url, { max: 5, pooler: appDb.pooler });
  // Every queue exists (a command may send any job in its transaction); workers run only for `opts.jobs`.
  const only = opts.jobs ? new Set(opts.jobs.map((j) => j.name)) : null;
  const jobs = opts.jobs ? [...opts.jobs, ...allJobs.filter((j) => !only!.has(j.name))] : allJobs;
  const queue = createQueue({ connectionString: appDb.url, db, logger, config, jobs, workers: only ? [...only] : undefined, work: opts.work ?? false });
  await queue.start();
  const app = createApp({ config, db, logger, queue });
  const callback = app.callback();
  return {
    config,
    db,
    queue,
    caches: createReadCaches(db, config.READ_CACHE_TTL_MS),
    request: supertest(callback),
    newSession: () => supertest.agent(callback),
    close: async () => {
      await queue.stop();
      await db.destroy();
      await database.drop();
    },
  };
}

/* One embedded PostgreSQL per jest run, in a per-run folder on a free port. A migrated template
 * database (with pg-boss's schema installed) is copied for each test file: fast and isolated. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { startEmbeddedPostgres } from '../src/platform/db/embedded';
import { createDb, migrateLatest } from '../src/platform/db/knex';
import { createLogger } from '../src/platform/logger';
import { startPgBouncer } from '../src/platform/db/testing/pgbouncer';
import { TEMPLATE_DB, RUN_DIR_PREFIX } from './constants';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Folders of earlier runs whose jest process is gone (a SIGKILLed run leaves its postgres behind). */
function cleanStaleRuns() {
  const tmp = os.tmpdir();
  for (const entry of fs.readdirSync(tmp)) {
    if (!entry.startsWith(RUN_DIR_PREFIX)) continue;
    const owner = Number(entry.slice(RUN_DIR_PREFIX.length).split('-')[0]);
    let alive = false;
    try {
      process.kill(owner, 0);
      alive = true;
    } catch {
      /* gone */
    }
    if (alive) continue;
    const pidFile = path.join(tmp, entry, 'pg', 'postmaster.pid');
    try {
      const pgPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (pgPid > 0) process.kill(pgPid, 'SIGKILL');
    } catch {
      /* not running */
    }
    fs.rmSync(path.join(tmp, entry), { recursive: true, force: true });
  }
}

export default async function globalSetup() {
  cleanStaleRuns();
  const dataDir = path.join(os.tmpdir(), `${RUN_DIR_PREFIX}${process.pid}-${Date.now()}`);
  const port = await freePort();
  const logger = createLogger('warn', 'test-db');
  const pg = await startEmbeddedPostgres({ dataDir, port, logger, ephemeral: true });
  const admin = createDb(pg.connectionString('postgres'), { max: 1 });
  await admin.raw(`create database ${TEMPLATE_DB}`);
  await admin.destroy();

  const templateUrl = pg.connectionString(TEMPLATE_DB);
  const db = createDb(templateUrl, { max: 2 });
  await migrateLatest(db);
  await db.destroy();
  // Install pg-boss's schema into the template too, so no test file pays for it.
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: templateUrl, supervise: false, schedule: false } as never);
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, close: true } as never);

  process.env.TEST_PG_ADMIN_URL = pg.connectionString('postgres');
  process.env.TEST_PG_URL_PREFIX = pg.connectionString('');
  // The run through PgBouncer (scripts/test-pgbouncer.mjs): the apps of createTestContext reach their database
  // through a PgBouncer in transaction mode, with DATABASE_POOLER=transaction. Databases are still made directly.
  let pgbouncer: { stop(): Promise<void> } | undefined;
  if (process.env.TEST_POOLER === 'pgbouncer') {
    const { password } = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
    const bouncer = await startPgBouncer({ dir: path.join(dataDir, 'pgbouncer'), server: { host: '127.0.0.1', port, user: 'postgres', password } });
    process.env.TEST_PGBOUNCER_URL_PREFIX = bouncer.url('');
    pgbouncer = bouncer;
  }
  (globalThis as Record<string, unknown>).__TEST_PG__ = { pg, dataDir, pgbouncer };
}

/**
 * The mechanisms that could break behind PgBouncer in transaction mode (Debian's 1.18: no prepared-statement
 * support), each through a PgBouncer of this file's own with two server connections, so that consecutive
 * transactions of one client land on different server connections as they do under load. Run by
 * `npm run test:pgbouncer` (part of `npm test`), which skips it, and says so, where pgbouncer is not installed.
 *
 * - Named prepared statements: break (the control), and DATABASE_POOLER=transaction sends them unnamed: the
 *   leads' pipelined transactions, the rate-limit counts (rate-limiter-flexible names its own) and pg-boss's
 *   inserts in the caller's transaction, from three app processes at once.
 * - Pipelined connections: answers stay in order and with their statements, failures included.
 * - LISTEN/NOTIFY: nothing arrives (the control); with DATABASE_POOLER=transaction the workers poll, and a job sent
 *   by one process is run by another's worker.
 * - Advisory locks: pg-boss takes transaction-scoped ones only; held across its transaction, they exclude.
 * - Session settings: the product sets none; one set by a client does not follow it (the control).
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { z } from 'zod';
import { createDb, pipelinedTransaction, pipelineOf, type Db } from './knex';
import { startPgBouncer, type PgBouncer } from './testing/pgbouncer';
import { consumeRateLimit } from '../http/rate-limit';
import { createQueue, type Queue } from '../jobs/queue';
import { defineJob } from '../jobs/job';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createTestDatabase } from '../../../test/helpers';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let bouncer: PgBouncer;
let dir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const admin = new URL(process.env.TEST_PG_ADMIN_URL!);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-pooler-test-'));
  // PostgreSQL over its Unix socket (the URL's host is the socket's folder).
  bouncer = await startPgBouncer({ dir, poolSize: 2, server: { host: decodeURIComponent(admin.hostname), port: Number(admin.port), user: 'postgres', password: decodeURIComponent(admin.password) } });
  const setup = new Client({ connectionString: database.url });
  await setup.connect();
  await setup.query('create table pooled_rows (process int, n int, primary key (process, n))');
  await setup.end();
});
afterAll(async () => {
  await bouncer.stop();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const through = () => bouncer.url(database.name);

/** What one app process does with statements that ask to be prepared by name: group-commit transactions, rate-limit counts, job inserts. */
async function namedStatementTraffic(db: Db, queue: Queue, process: number): Promise<{ ok: number; errors: string[] }> {
  const errors: string[] = [];
  let ok = 0;
  const job = jobDef;
  await Promise.all(
    Array.from({ length: 20 }, async (_, n) => {
      try {
        await pipelinedTransaction(db, async (tx) => {
          await Promise.all([
            tx.query({ name: 'test.insert-row', text: 'insert into pooled_rows (process, n) values ($1, $2)', values: [process, n] }),
            queue.sendMany(job, [{ n }], { sql: tx }),
          ]);
        });
        await consumeRateLimit(db, { name: 'pooler-test', points: 10_000, durationSeconds: 60 }, `p${process}`);
        ok += 1;
      } catch (err) {
        errors.push((err as Error).message);
      }
    }),
  );
  return { ok, errors };
}

const jobDef = defineJob({
  name: 'test.pooled',
  payload: z.object({ n: z.number().int() }),
  options: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30 },
  async handler() {},
});

async function appProcess(pooler: 'none' | 'transaction', opts: { work?: boolean; jobs?: ReturnType<typeof defineJob<any>>[] } = {}) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: through(), DATABASE_POOLER: pooler });
  const db = createDb(through(), { max: 3, pooler });
  const queue = createQueue({ connectionString: through(), db, logger: createLogger('silent'), config, jobs: opts.jobs ?? [jobDef], work: opts.work ?? false });
  await queue.start();
  return { db, queue, close: async () => (await queue.stop(), await db.destroy()) };
}

async function rowCount(): Promise<number> {
  const c = new Client({ connectionString: database.url });
  await c.connect();
  const { rows } = await c.query('select count(*)::int as n from pooled_rows');
  await c.end();
  return rows[0].n;
}

describe('behind PgBouncer in transaction mode', () => {
  it('statements prepared by name fail there (the control)', async () => {
    // Three clients over two server connections: each client's next statement may land where its name is unknown
    // (node-postgres then sends only Bind: "does not exist") or taken by another client's ("already exists").
    const clients = await Promise.all([1, 2, 3].map(async () => {
      const c = new Client({ connectionString: through() });
      await c.connect();
      return c;
    }));
    try {
      const errors = new Set<string>();
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          clients.map((c, i) =>
            c.query({ name: 'test.named', text: 'select $1::int as n, pg_sleep(0.002)', values: [i] }).catch((err: Error) => {
              errors.add(err.message.replace(/"[^"]*"/, '"test.named"'));
            }),
          ),
        );
      }
      expect([...errors].sort()).not.toEqual([]);
      for (const e of errors) expect(e).toMatch(/^prepared statement "test.named" (does not exist|already exists)$/);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('with DATABASE_POOLER=transaction the same traffic from three processes all lands', async () => {
    const apps = await Promise.all([1, 2, 3].map(() => appProcess('transaction')));
    try {
      const results = await Promise.all(apps.map((a, i) => namedStatementTraffic(a.db, a.queue, i + 1)));
      expect(results.map((r) => ({ ok: r.ok, errors: r.errors }))).toEqual([1, 2, 3].map(() => ({ ok: 20, errors: [] })));
      expect(await rowCount()).toBe(60);
      const counted = await apps[0].db('rate_limits').where('key', 'like', 'pooler-test:%').sum({ n: 'points' }).first();
      expect(Number(counted?.n)).toBe(60);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });

  it('enqueues inside transactions that hold every server connection, right after the start (no second connection awaited)', async () => {
    const app = await appProcess('transaction');
    try {
      let pinned = 0;
      let allPinned!: () => void;
      const bothPinned = new Promise<void>((r) => (allPinned = r));
      // Two transactions: the two server connections this PgBouncer has for the database, both held.
      const transactions = [1, 2].map((n) =>
        pipelinedTransaction(app.db, async (tx) => {
          await tx.query({ text: 'insert into pooled_rows (process, n) values (9, $1)', values: [n] });
          if (++pinned === 2) allPinned();
          await bothPinned;
          return app.queue.sendMany(jobDef, [{ n }], { sql: tx });
        }),
      );
      // A deadlock would wait for PgBouncer's query_wait_timeout (2 minutes); a working enqueue takes milliseconds.
      const outcome = await Promise.race([Promise.all(transactions).then(() => 'committed'), new Promise((r) => setTimeout(() => r('still waiting after 15 s'), 15_000))]);
      expect(outcome).toBe('committed');
    } finally {
      await app.close();
    }
  }, 60_000);

  it('answers pipelined statements in order, with their own statement, failures included', async () => {
    const db = createDb(through(), { max: 2, pooler: 'transaction' });
    const other = createDb(through(), { max: 2, pooler: 'transaction' });
    try {
      let busy = true;
      // Another process's traffic, so the server connections change hands between statements.
      const load = (async () => {
        while (busy) await other.raw('select pg_sleep(0.002)');
      })();
      const sent = Array.from({ length: 600 }, (_, i) =>
        pipelineOf(db)
          .query<{ n: number }>({ name: 'test.echo', text: i % 25 === 7 ? 'select $1::int / 0 as n' : 'select $1::int as n', values: [i] })
          .then((r) => r.rows[0].n, (err: Error) => err.message),
      );
      const answers = await Promise.all(sent);
      busy = false;
      await load;
      expect(answers).toEqual(Array.from({ length: 600 }, (_, i) => (i % 25 === 7 ? 'division by zero' : i)));
    } finally {
      await db.destroy();
      await other.destroy();
    }
  });

  it('LISTEN hears nothing there (the control), and workers that poll run a job sent by another process', async () => {
    const listener = new Client({ connectionString: through() });
    await listener.connect();
    let heard = 0;
    listener.on('notification', () => (heard += 1));
    await listener.query('listen pooler_test');
    const notifier = createDb(through(), { max: 2, pooler: 'transaction' });
    for (let i = 0; i < 10; i++) await Promise.all([notifier.raw(`select pg_notify('pooler_test', 'x')`), notifier.raw('select pg_sleep(0.01)')]);
    // A notification would be on its way by now (a round trip on this machine is well under a millisecond).
    await listener.query('select 1');
    await notifier.destroy();
    await listener.end();
    expect(heard).toBe(0);

    let ran!: (n: number) => void;
    const done = new Promise<number>((r) => (ran = r));
    const runs = defineJob({ ...jobDef, name: 'test.pooled-run', async handler({ n }) { ran(n); } });
    const worker = await appProcess('transaction', { work: true, jobs: [runs] });
    const sender = await appProcess('transaction', { jobs: [runs] });
    try {
      await sender.queue.send(runs, { n: 42 });
      expect(await done).toBe(42);
    } finally {
      await sender.close();
      await worker.close();
    }
  });

  it("pg-boss's transaction-scoped advisory lock excludes while its transaction holds it", async () => {
    const a = createDb(through(), { max: 1, pooler: 'transaction' });
    const b = createDb(through(), { max: 1, pooler: 'transaction' });
    try {
      await a.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(4242)');
        expect((await b.raw('select pg_try_advisory_xact_lock(4242) as got')).rows[0].got).toBe(false);
      });
      expect((await b.raw('select pg_try_advisory_xact_lock(4242) as got')).rows[0].got).toBe(true);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it('a session setting does not follow its client from one transaction to the next (the control)', async () => {
    const client = new Client({ connectionString: through() });
    await client.connect();
    const others = createDb(through(), { max: 2, pooler: 'transaction' });
    try {
      // (PgBouncer carries a few reported settings, application_name among them, to each server it links; not others.)
      await client.query(`set listing.pooler_test = 'set'`);
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) {
        await Promise.all([others.raw('select pg_sleep(0.005)'), others.raw('select pg_sleep(0.005)')]);
        seen.add((await client.query(`select coalesce(current_setting('listing.pooler_test', true), '') as v`)).rows[0].v);
      }
      expect(seen.size).toBeGreaterThan(1);
    } finally {
      await client.end();
      await others.destroy();
    }
  });
});

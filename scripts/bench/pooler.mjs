#!/usr/bin/env node
// npm run bench:pooler — what PgBouncer in transaction mode (DATABASE_POOLER=transaction) costs the lead POST:
// two web processes (JOBS_ENABLED=false) on the same embedded PostgreSQL, one connected directly, one through a
// PgBouncer (Debian's 1.18, transaction mode, 20 server connections), beside bare Koa, all in the same run.
// Each round sends the same lead POSTs (BENCH_LEADS, 1,000: new forms, each from its own address) at 20
// connections to bare Koa, then the direct process, then the pooled one; BENCH_ROUNDS rounds (3), medians.
// Reported: p95 and p50 per target, leads/s, and CPU per lead (the web process, PostgreSQL, PgBouncer).
import { fork, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { clusterCpuSeconds, cpuSecondsOf, freePort, leadFormTokens, leadRequests, median, percentile, postClosedLoop, root, seedDemoListings, startProduct, tempDir, waitFor } from './lib.mjs';

const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LEADS = Number(process.env.BENCH_LEADS ?? 1000);
const log = (...a) => console.error('[bench:pooler]', ...a);

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('build failed');
const { pgbouncerBinary, startPgBouncer } = require(path.join(root, 'backend', 'dist', 'platform', 'db', 'testing', 'pgbouncer.js'));
if (!pgbouncerBinary()) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer)');

const barePort = await freePort();
const bare = fork(path.join(root, 'scripts', 'bench', 'bare-koa.mjs'), { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
const bareUrl = `http://127.0.0.1:${barePort}/`;
await waitFor(bareUrl);
const direct = await startProduct({ LOG_LEVEL: 'warn', TRUST_PROXY: 'true', JOBS_ENABLED: 'false' });
const databaseUrl = new URL(direct.databaseUrl());
const bouncer = await startPgBouncer({
  dir: path.join(tempDir('la-bench-pgbouncer-'), 'pgbouncer'),
  server: { host: decodeURIComponent(databaseUrl.hostname), port: Number(databaseUrl.port), user: 'postgres', password: decodeURIComponent(databaseUrl.password) },
});
// The second web process, as compose runs one behind PgBouncer: the same secrets, migrations past the pooler.
const secrets = JSON.parse(fs.readFileSync(path.join(direct.dataDir, 'secrets.json'), 'utf8'));
const pooledPort = await freePort();
const pooled = spawn(process.execPath, [path.join(root, 'backend', 'dist', 'server.js')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    JOBS_ENABLED: 'false',
    PORT: String(pooledPort),
    HOST: '127.0.0.1',
    // Production asks for the public origin every absolute link is built from.
    PUBLIC_URL: `http://127.0.0.1:${pooledPort}`,
    DATA_DIR: direct.dataDir,
    DATABASE_URL: bouncer.url('listing_ads'),
    DATABASE_POOLER: 'transaction',
    DATABASE_DIRECT_URL: direct.databaseUrl(),
    SESSION_SECRET: secrets.sessionSecret,
    ENCRYPTION_KEY: secrets.encryptionKey,
  },
});
const pooledUrl = `http://127.0.0.1:${pooledPort}`;
try {
  await waitFor(`${pooledUrl}/api/ready`);
  const mlsIds = await seedDemoListings(direct.url);
  const tokens = await leadFormTokens(direct.url, mlsIds);
  await new Promise((r) => setTimeout(r, 3500));
  log('seeded', mlsIds.length, 'listings');
  const admin = new pg.Client({ connectionString: direct.databaseUrl() });
  await admin.connect();
  const targets = [
    { name: 'bare Koa, the same POSTs', url: bareUrl, pid: null },
    { name: 'lead POST, direct connection', url: direct.url, pid: direct.pid },
    { name: 'lead POST, through PgBouncer (transaction mode)', url: pooledUrl, pid: pooled.pid },
  ];
  const results = new Map(targets.map((t) => [t.name, []]));
  // Warm-up: JIT, pools, caches.
  for (const t of targets) await postClosedLoop(t.url, leadRequests(t.url, mlsIds, tokens), { count: 200, connections: 20, label: t.name });
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      // Each run gets the same room under the limits per listing (100 leads an hour): the bench's own counts go.
      await admin.query('delete from rate_limits');
      const requests = leadRequests(t.url, mlsIds, tokens);
      const setup = t.pid ? requests : (req) => ({ ...requests(req), path: '/' });
      const before = t.pid ? { app: cpuSecondsOf(t.pid), db: clusterCpuSeconds(direct.dataDir), bouncer: cpuSecondsOf(bouncer.pid) } : null;
      const { times, rps } = await postClosedLoop(t.url, setup, { count: LEADS, connections: 20, label: t.name });
      const cpu = before && {
        app: ((cpuSecondsOf(t.pid) - before.app) * 1000) / times.length,
        db: ((clusterCpuSeconds(direct.dataDir) - before.db) * 1000) / times.length,
        bouncer: ((cpuSecondsOf(bouncer.pid) - before.bouncer) * 1000) / times.length,
      };
      results.get(t.name).push({ p95: percentile(times, 95), p50: percentile(times, 50), rps, cpu });
    }
    log(`round ${round + 1} of ${ROUNDS} done`);
  }
  await admin.end();
  console.log(`\nbench:pooler — ${LEADS} lead POSTs at 20 connections per run, ${ROUNDS} alternating rounds, medians; ${os.cpus().length} cores; PgBouncer ${spawnSync(pgbouncerBinary(), ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]}\n`);
  const med = (xs, f) => median(xs.map(f));
  console.table(
    targets.map((t) => {
      const xs = results.get(t.name);
      return {
        target: t.name,
        'p95 ms': Number(med(xs, (x) => x.p95).toFixed(1)),
        'p95 per round': xs.map((x) => x.p95.toFixed(1)).join(', '),
        'p50 ms': Number(med(xs, (x) => x.p50).toFixed(1)),
        'leads/s': Math.round(med(xs, (x) => x.rps)),
        'CPU ms/lead: web, PostgreSQL, PgBouncer': t.pid ? [med(xs, (x) => x.cpu.app), med(xs, (x) => x.cpu.db), med(xs, (x) => x.cpu.bouncer)].map((v) => v.toFixed(2)).join(', ') : '',
      };
    }),
  );
} finally {
  pooled.kill('SIGTERM');
  await new Promise((r) => (pooled.exitCode !== null ? r() : pooled.once('exit', r)));
  await bouncer.stop();
  await direct.stop();
  bare.kill('SIGTERM');
}

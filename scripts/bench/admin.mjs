#!/usr/bin/env node
// npm run bench:admin — GET /api/admin/agents, first page, with and without a search filter, over 100,000 agents with
// 300,000 campaigns and payments (seed-admin.mjs). Reports p50/p95 of single requests (one client, the admin's
// view) and autocannon medians at 50 connections with the ratio to a bare Koa hello world from the same run;
// and the admin remote's JS size, gzip. Goal: p95 ≤ 100 ms.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { buildBackend, freePort, median, percentile, root, startProduct, tempDir, waitFor } from './lib.mjs';
import { seedAdmin } from './seed-admin.mjs';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PASSWORD = 'bench-admin-password';

buildBackend();
const dataDir = tempDir('la-bench-admin-');
const pgPort = await freePort();
const product = await startProduct({ ADMIN_PASSWORD: PASSWORD, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'warn' });
try {
  const { password } = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  const t0 = Date.now();
  await seedAdmin(`postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/listing_ads`, { agents: AGENTS });
  console.log(`seeded ${AGENTS} agents, ${AGENTS * 3} campaigns and payments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const login = await fetch(`${product.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: product.url }, body: JSON.stringify({ password: PASSWORD }) });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  const targets = { 'first page': '/api/admin/agents', 'search "garcia"': '/api/admin/agents?search=garcia', 'status active + 30 days': '/api/admin/agents?status=active&created=30d' };
  const barePort = await freePort();
  const bare = fork(path.join(root, 'scripts', 'bench', 'bare-koa.mjs'), { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
  await waitFor(`http://127.0.0.1:${barePort}/`);
  const cannon = (url, headers = {}) =>
    new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (e, r) => (e ? reject(e) : resolve(r))));
  const bareRun = await cannon(`http://127.0.0.1:${barePort}/`);
  const rows = [];
  for (const [name, p] of Object.entries(targets)) {
    const check = await (await fetch(product.url + p, { headers: { cookie } })).json();
    if (!Array.isArray(check.agents) || check.agents.length === 0) throw new Error(`${name}: no rows`);
    for (let i = 0; i < 10; i++) await fetch(product.url + p, { headers: { cookie } }); // warm
    const times = [];
    for (let i = 0; i < SAMPLES; i++) {
      const s = performance.now();
      const r = await fetch(product.url + p, { headers: { cookie } });
      await r.arrayBuffer();
      times.push(performance.now() - s);
    }
    const run = await cannon(product.url + p, { cookie });
    rows.push({
      request: name,
      'p50 ms': median(times).toFixed(1),
      'p95 ms': percentile(times, 95).toFixed(1),
      [`req/s @${CONNECTIONS}`]: Math.round(run.requests.average),
      [`p50 ms @${CONNECTIONS}`]: run.latency.p50,
      'vs bare Koa req/s': `${((run.requests.average / bareRun.requests.average) * 100).toFixed(1)} %`,
      totalAgents: check.totals.agents,
    });
  }
  bare.kill();
  console.table(rows);
  console.log(`bare Koa: ${Math.round(bareRun.requests.average)} req/s`);
} finally {
  await product.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// The admin remote as the browser downloads it: every JS file of frontend-admin/dist, gzip.
const dist = path.join(root, 'frontend-admin', 'dist');
if (fs.existsSync(dist)) {
  let raw = 0;
  let gz = 0;
  const walk = (d) =>
    fs.readdirSync(d, { withFileTypes: true }).forEach((e) => {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (f.endsWith('.js')) {
        const b = fs.readFileSync(f);
        raw += b.length;
        gz += zlib.gzipSync(b, { level: 9 }).length;
      }
    });
  walk(dist);
  console.log(`admin remote JS: ${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzip (all of frontend-admin/dist, shared singletons included)`);
} else console.log('admin remote not built: run `npm run build -w @app/frontend-admin` for its size');

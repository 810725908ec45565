#!/usr/bin/env node
// npm run bench:api — our /api/health and GET /api/agents against a bare Koa hello world started in the
// same run, on the same machine, interleaved over several rounds; medians are reported with the ratio.
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildBackend, freePort, median, root, startProduct, waitFor } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const run = (url, headers = {}) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, res) => (err ? reject(err) : resolve(res)));
  });

buildBackend();
const barePort = await freePort();
const bare = fork(path.join(root, 'scripts', 'bench', 'bare-koa.mjs'), { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
const bareUrl = `http://127.0.0.1:${barePort}/`;
await waitFor(bareUrl);
const product = await startProduct();

// A browser session that owns three agents, as in the wizard.
let cookie = '';
for (const name of ['Ava Stone', 'Ben Ortiz', 'Cleo Park']) {
  const res = await fetch(`${product.url}/api/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ name, state: 'FL', manualEntry: true }),
  });
  if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (set) cookie = set;
}
const check = await (await fetch(`${product.url}/api/agents`, { headers: { cookie } })).json();
if (check.length !== 3) throw new Error(`expected 3 agents in the session, got ${check.length}`);

const targets = [
  { name: 'bare Koa hello world', url: bareUrl },
  { name: 'GET /api/health', url: `${product.url}/api/health` },
  { name: 'GET /api/agents (session, 3 agents)', url: `${product.url}/api/agents`, headers: { cookie } },
];
// Warm up every target once.
for (const t of targets) await new Promise((r) => autocannon({ url: t.url, connections: 5, duration: 1, headers: t.headers }, r));

const results = new Map(targets.map((t) => [t.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const t of targets) {
    const r = await run(t.url, t.headers);
    if (r.non2xx || r.errors) throw new Error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    results.get(t.name).push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
  }
}

const bareRps = median(results.get(targets[0].name).map((x) => x.rps));
console.log(`\nbench:api — ${ROUNDS} rounds × ${DURATION} s, ${CONNECTIONS} connections, medians\n`);
console.table(
  targets.map((t) => {
    const xs = results.get(t.name);
    const rps = median(xs.map((x) => x.rps));
    return {
      target: t.name,
      'req/s': Math.round(rps),
      'p50 ms': median(xs.map((x) => x.p50)),
      'p99 ms': median(xs.map((x) => x.p99)),
      'ratio to bare Koa': (rps / bareRps).toFixed(2),
    };
  }),
);

await product.stop();
bare.kill('SIGTERM');

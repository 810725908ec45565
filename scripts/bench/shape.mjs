#!/usr/bin/env node
// npm run bench:shape — the shape that ships (docker-compose.yml, deploy/kubernetes): a web process (JOBS_ENABLED=false)
// beside a worker process (JOBS_ENABLED=true) on the same database and the same cores, on the built product
// (production mode) over a throw-away embedded database. Each run:
//  A. the web process alone: BENCH_LEADS lead POSTs (1500) at 20 connections, browser headers;
//  then a worker is started and delivers what A queued (not measured);
//  B. the same POSTs beside the worker, which delivers each lead twice: an email (the embedded mail provider: the
//     .eml outbox) and a signed webhook to a local receiver. Measured until every lead of B is delivered on both.
//     BENCH_MAIL=smtp: the email goes by the real provider instead, SMTP (pooled connections) to a local SMTP server
//     in a process of its own (smtp-server), as a deployment with SMTP_URL sends it.
// Reported per phase: lead POST p50/p95/p99; for A, the CPU time per lead POST of the web process and of PostgreSQL
// (utime+stime from /proc/<pid>/stat: the web process; the cluster's postmaster and its backends); for B, the leads
// delivered, PostgreSQL's CPU per lead (the POSTs' statements and the deliveries'), and the worker's CPU time (the
// same, less its idle rate measured over 10 s just before) per delivered lead, and of it the kernel's (system) time
// apart: the embedded mail provider creates one .eml file per email, and on ext4 without a journal (this machine's)
// creating a file soon after many were deleted costs up to 0.5 ms of kernel time (the inode allocator steps over each
// recently deleted inode), so that part depends on what ran just before. BENCH_RUNS runs (3), medians.
// As bench:leads: each lead goes to a listing of its own from a buyer in a network of its own (X-Forwarded-For behind
// TRUST_PROXY), so neither the per-address limit nor a listing's flood guard is involved.
// BENCH_WORKER_NODE_ARGS: flags for the worker's node (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof').
// BENCH_WORKER_NICE (6): the worker's niceness. The shape that ships weighs the worker's CPU at a quarter of a web
// process's (docker-compose.yml cpu_shares 256 against 1024; deploy/kubernetes: a 64m request against 250m); on one
// host without containers the same weight is niceness 6 (the kernel's weight 272 against 1024). 0: equal weights.
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { BROWSER_HEADERS, backendDist as dist, buildBackend, clusterCpuSeconds, cpuSecondsOf, cpuTimesOf, freePort, leadFormJson, median, percentile, postClosedLoop, root, startProduct, tempDir, waitFor } from './lib.mjs';

const require = createRequire(import.meta.url);
buildBackend();
const { startEmbeddedPostgres, ensureDatabase } = dist('platform/db/embedded.js');
const { createDb, migrateLatest } = dist('platform/db/knex.js');
const { createLogger } = dist('platform/logger.js');
const { createSecretBox } = dist('platform/crypto/secret-box.js');
const { LeadFormTokens } = dist('modules/leads/form-token.js');

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MAIL = process.env.BENCH_MAIL === 'smtp' ? 'smtp' : 'outbox';
const WORKER_NICE = Number(process.env.BENCH_WORKER_NICE ?? 6);
const LEADS = Number(process.env.BENCH_LEADS ?? 1500);
const CONNECTIONS = 20;
/** Leads before the runs: JIT, pools, prepared statements and the database warm (200 left the first run 1.5–2× slower). */
const WARMUP = 1000;
/** One listing per lead: the warm-up, and phases A and B of every run. */
const LISTINGS = WARMUP + RUNS * 2 * LEADS;
const SESSION_SECRET = crypto.randomBytes(32).toString('hex');
const ENCRYPTION_KEY = crypto.randomBytes(32).toString('hex');
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...a) => console.error('[bench:shape]', ...a);

// The agent's webhook receiver: the lead ids received (each lead's webhook once, or counted as a duplicate).
const webhooks = new Set();
let duplicates = 0;
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const leadId = JSON.parse(body).data.lead.id;
    if (webhooks.has(leadId)) duplicates++;
    else webhooks.add(leadId);
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));

const logger = createLogger('warn', 'bench');
const pgDir = tempDir('la-bench-shape-pg-');
const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: await freePort(), logger, ephemeral: true });
await ensureDatabase(pg.connectionString('postgres'), 'bench_shape');
const dbUrl = pg.connectionString('bench_shape');
const db = createDb(dbUrl, { max: 2 });
await migrateLatest(db);

// One agent with a verified email (lead emails on) and a signed webhook, and a listing per lead.
const [agent] = await db('agents').insert({ name: 'Bench Agent', state: 'FL', source: 'manual', email: 'agent@example.com', verifiedAt: new Date() }).returning('id');
await db('notificationSettings').insert({
  agentId: agent.id,
  emailNotifications: true,
  webhookUrl: `http://127.0.0.1:${receiver.address().port}/hook`,
  webhookSecretEnc: createSecretBox(ENCRYPTION_KEY).seal('whsec_' + crypto.randomBytes(24).toString('base64')),
});
const mlsIds = Array.from({ length: LISTINGS }, (_, i) => `SHAPE-${i}`);
for (let from = 0; from < LISTINGS; from += 1000) {
  await db('listings').insert(mlsIds.slice(from, from + 1000).map((mlsId, k) => ({ agentId: agent.id, mlsId, address: `${from + k} Shape St`, city: 'Tampa', state: 'FL', priceCents: 45000000, status: 'active' })));
}

const dataDir = tempDir('la-bench-shape-');
const common = {
  DATABASE_URL: dbUrl,
  DATA_DIR: dataDir,
  SESSION_SECRET,
  ENCRYPTION_KEY,
  LOG_LEVEL: 'warn',
};
const web = await startProduct({ ...common, NODE_ENV: 'production', TRUST_PROXY: 'true', JOBS_ENABLED: 'false', BENCH_LOG_LEVEL: 'warn' }).catch(async (err) => {
  await db.destroy();
  await pg.stop();
  throw err;
});
// The receiver listens on 127.0.0.1: OUTBOUND_ALLOW_LOOPBACK, which production refuses (config.ts). The worker runs
// with NODE_ENV=test for that alone (in the backend
// NODE_ENV=test changes only that and the development outbox routes, which a worker does not serve).
const workerNodeEnv = 'test';
const outbox = path.join(dataDir, 'outbox');
// BENCH_MAIL=smtp: an SMTP server in a process of its own, which counts the messages it accepts.
let smtpAccepted = 0;
const smtpSink = MAIL === 'smtp'
  ? spawn(process.execPath, ['-e', `
      const { SMTPServer } = require(${JSON.stringify(require.resolve('smtp-server'))});
      const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, onData(stream, _session, done) {
        stream.on('data', () => {});
        stream.on('end', () => { process.stdout.write('+'); done(); });
      } });
      server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.server.address().port + '\\n'));
    `], { stdio: ['ignore', 'pipe', 'inherit'] })
  : null;
const smtpUrl = smtpSink
  ? await new Promise((resolve) => {
      // The port line first, then a '+' per message (the port line has none).
      let out = '';
      smtpSink.stdout.on('data', (d) => {
        const text = String(d);
        smtpAccepted += text.split('+').length - 1;
        if (out === null) return;
        const port = /port (\d+)\n/.exec((out += text))?.[1];
        if (port) {
          out = null;
          resolve(`smtp://127.0.0.1:${port}`);
        }
      });
    })
  : undefined;

async function startWorker() {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'backend', 'dist', 'server.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...common, NODE_ENV: workerNodeEnv, OUTBOUND_ALLOW_LOOPBACK: 'true', PUBLIC_URL: web.url, JOBS_ENABLED: 'true', PORT: String(port), HOST: '127.0.0.1', ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}) },
  });
  os.setPriority(child.pid, WORKER_NICE);
  await waitFor(`http://127.0.0.1:${port}/api/ready`);
  return {
    pid: child.pid,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}
const tokens = new LeadFormTokens(SESSION_SECRET);
let n = 0;
/** autocannon's setupRequest: a new form, a listing of its own, a buyer in a network of its own, browser headers. */
function leadRequest(req) {
  const i = n++;
  const mlsId = mlsIds[i];
  return {
    ...req,
    path: `/api/listings/${mlsId}/leads`,
    headers: { ...BROWSER_HEADERS, 'content-type': 'application/json', origin: web.url, 'sec-fetch-site': 'same-origin', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
    body: leadFormJson(tokens, mlsId, i),
  };
}
const postLeads = (count, label) => postClosedLoop(web.url, leadRequest, { count, connections: CONNECTIONS, label });

/** Leads (ids > `afterId`) delivered on both channels: the webhook received, the email's attempt succeeded. */
async function deliveredSince(afterId) {
  const { rows: [{ count }] } = await db.raw(
    `select count(*)::int as count from (
       select lead_id from notification_messages
        where lead_id > ? and status = 'delivered' and channel in ('email', 'webhook')
        group by lead_id having count(distinct channel) = 2) d`,
    [afterId],
  );
  return count;
}
const maxLeadId = async () => Number((await db('leads').max('id as id').first()).id ?? 0);
async function waitAllDelivered(afterId, expected, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const done = await deliveredSince(afterId);
    if (done >= expected || Date.now() > until) return done;
    await pause(100);
  }
}
/** Until `done()` (checked every 100 ms) or `timeoutMs`. */
async function waitUntil(done, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (!done() && Date.now() < until) await pause(100);
}
const emailsOut = () => (smtpSink ? smtpAccepted : fs.readdirSync(outbox).length);

const results = [];
try {
  // Warm-up: JIT, pools, prepared statements; delivered by a worker, then stopped.
  await postLeads(WARMUP, 'warm-up');
  {
    const w = await startWorker();
    await waitAllDelivered(0, WARMUP, 60000);
    await w.stop();
  }
  for (let run = 1; run <= RUNS; run++) {
    // A: the web process alone (the deliveries wait in the queue).
    const web0 = cpuSecondsOf(web.pid);
    const pg0 = clusterCpuSeconds(pgDir);
    const alone = await postLeads(LEADS, 'leads, web process alone');
    // CPU per lead POST of the web process and of PostgreSQL (every backend of this cluster) over phase A.
    const webCpuPerLead = ((cpuSecondsOf(web.pid) - web0) * 1000) / LEADS;
    const pgCpuPerLead = ((clusterCpuSeconds(pgDir) - pg0) * 1000) / LEADS;
    log(`run ${run}: A measured`);
    // The worker delivers A's leads, then idles: its idle CPU rate over 10 s (pg-boss supervises every 10 s).
    const worker = await startWorker();
    const beforeA = await maxLeadId();
    await waitAllDelivered(0, beforeA, 120000);
    await pause(500);
    const idle0 = cpuSecondsOf(worker.pid);
    const idleT0 = performance.now();
    await pause(10000);
    const idleRate = (cpuSecondsOf(worker.pid) - idle0) / ((performance.now() - idleT0) / 1000);
    // B: the same POSTs beside the worker, until every lead of B is delivered on both channels.
    const afterId = await maxLeadId();
    const emails0 = emailsOut();
    const hooks0 = webhooks.size;
    const cpu0 = cpuTimesOf(worker.pid);
    const pgB0 = clusterCpuSeconds(pgDir);
    const t0 = performance.now();
    const beside = await postLeads(LEADS, 'leads, beside a worker');
    // Watched from outside the database until both channels have carried every lead (the webhooks received, the
    // emails out), then checked in it: its count over the messages (their payloads read) every 100 ms cost
    // PostgreSQL more CPU than the deliveries, which the PostgreSQL figure of phase B would have counted.
    await waitUntil(() => webhooks.size - hooks0 >= LEADS && emailsOut() - emails0 >= LEADS, 120000);
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = cpuTimesOf(worker.pid);
    const workerSystem = cpu1.system - cpu0.system;
    const workerCpuRaw = cpu1.user - cpu0.user + workerSystem;
    const pgCpuBeside = clusterCpuSeconds(pgDir) - pgB0;
    // The last attempts' rows are written just after their email and webhook went out.
    const delivered = await waitAllDelivered(afterId, LEADS, 120000);
    const workerCpu = workerCpuRaw - idleRate * elapsed;
    await worker.stop();
    // The attempts' write transactions (a transaction's rows share its created_at, now()): one per attempt when each
    // job writes its own, one per fetch when a fetch is written at once.
    const { rows: [writes] } = await db.raw('select count(*)::int as attempts, count(distinct created_at)::int as writes from notification_deliveries where lead_id > ?', [afterId]);
    results.push({
      alone,
      webCpuPerLead,
      pgCpuPerLead,
      beside,
      delivered,
      emails: emailsOut() - emails0,
      webhooks: webhooks.size - hooks0,
      deliveredSeconds: elapsed,
      idleMsPerSecond: idleRate * 1000,
      workerCpuPerLead: (workerCpu * 1000) / delivered,
      workerCpuRawPerLead: (workerCpuRaw * 1000) / delivered,
      workerSystemPerLead: (workerSystem * 1000) / delivered,
      pgCpuBesidePerLead: (pgCpuBeside * 1000) / LEADS,
      attemptsPerWrite: writes.attempts / writes.writes,
    });
    log(`run ${run}: B measured; ${delivered} leads delivered in ${elapsed.toFixed(1)} s, worker ${((workerCpu * 1000) / delivered).toFixed(2)} ms CPU per lead`);
  }
} finally {
  await web.stop();
  receiver.close();
  smtpSink?.kill();
  await db.destroy();
  await pg.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const p = (r, q) => percentile(r.times, q);
const med = (f) => median(results.map(f));
const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(', ');
console.log(`\nbench:shape — ${RUNS} runs × ${LEADS} lead POSTs at ${CONNECTIONS} connections per phase, browser headers, the worker at niceness ${WORKER_NICE}, email by ${MAIL === 'smtp' ? 'SMTP to a local server' : 'the .eml outbox'}; medians over the runs (each run's figures after them); ${os.cpus().length} cores, 1-min load ${os.loadavg()[0].toFixed(2)}\n`);
console.table([
  { measure: 'lead POST p50 ms, web process alone', value: med((r) => p(r.alone, 50)), goal: '', runs: fmt(results.map((r) => p(r.alone, 50))) },
  { measure: 'lead POST p95 ms, web process alone', value: med((r) => p(r.alone, 95)), goal: '', runs: fmt(results.map((r) => p(r.alone, 95))) },
  { measure: 'lead POST p99 ms, web process alone', value: med((r) => p(r.alone, 99)), goal: '', runs: fmt(results.map((r) => p(r.alone, 99))) },
  { measure: 'leads/s, web process alone', value: Math.round(med((r) => r.alone.rps)), goal: '', runs: results.map((r) => Math.round(r.alone.rps)).join(', ') },
  { measure: 'web process CPU ms per lead POST, alone', value: Number(med((r) => r.webCpuPerLead).toFixed(3)), goal: '', runs: results.map((r) => r.webCpuPerLead.toFixed(3)).join(', ') },
  { measure: 'PostgreSQL CPU ms per lead POST, alone', value: Number(med((r) => r.pgCpuPerLead).toFixed(3)), goal: '', runs: results.map((r) => r.pgCpuPerLead.toFixed(3)).join(', ') },
  { measure: 'lead POST p50 ms, beside a worker', value: med((r) => p(r.beside, 50)), goal: '', runs: fmt(results.map((r) => p(r.beside, 50))) },
  { measure: 'lead POST p95 ms, beside a worker', value: med((r) => p(r.beside, 95)), goal: '≤ 40', runs: fmt(results.map((r) => p(r.beside, 95))) },
  { measure: 'lead POST p99 ms, beside a worker', value: med((r) => p(r.beside, 99)), goal: '', runs: fmt(results.map((r) => p(r.beside, 99))) },
  { measure: 'leads/s, beside a worker', value: Math.round(med((r) => r.beside.rps)), goal: '', runs: results.map((r) => Math.round(r.beside.rps)).join(', ') },
  { measure: 'p95 beside a worker / alone', value: Number(med((r) => p(r.beside, 95) / p(r.alone, 95)).toFixed(2)), goal: '', runs: results.map((r) => (p(r.beside, 95) / p(r.alone, 95)).toFixed(2)).join(', ') },
  { measure: 'leads delivered (email and webhook)', value: med((r) => r.delivered), goal: `${LEADS}`, runs: results.map((r) => `${r.delivered} (${r.emails} emails, ${r.webhooks} webhooks, ${r.deliveredSeconds.toFixed(1)} s)`).join('; ') },
  { measure: 'worker CPU ms per delivered lead', value: Number(med((r) => r.workerCpuPerLead).toFixed(2)), goal: '≤ 0.8', runs: results.map((r) => `${r.workerCpuPerLead.toFixed(2)} (${r.workerCpuRawPerLead.toFixed(2)} before its idle ${r.idleMsPerSecond.toFixed(1)} ms/s)`).join(', ') },
  { measure: 'of it system (kernel) time', value: Number(med((r) => r.workerSystemPerLead).toFixed(2)), goal: '', runs: results.map((r) => r.workerSystemPerLead.toFixed(2)).join(', ') },
  { measure: 'PostgreSQL CPU ms per lead, beside a worker (the POST and the delivery)', value: Number(med((r) => r.pgCpuBesidePerLead).toFixed(3)), goal: '', runs: results.map((r) => r.pgCpuBesidePerLead.toFixed(3)).join(', ') },
  { measure: 'attempts per write transaction', value: Number(med((r) => r.attemptsPerWrite).toFixed(1)), goal: '', runs: results.map((r) => r.attemptsPerWrite.toFixed(1)).join(', ') },
  { measure: 'webhooks received twice', value: duplicates, goal: '0', runs: '' },
]);

#!/usr/bin/env node
// npm run bench:worker-floor — the floor under issue 28's worker goal (≤ 0.8 ms of CPU per delivered lead, email and
// webhook together): what one delivered lead costs at the least in this stack, each part alone, with none of the
// product's own delivery work (no lease, no attempt rows, no settings, no sign-in link, no outbox file). In one run:
//  - the email: nodemailer's MIME build of a realistic lead email (composeEml, as both mail providers build it);
//  - the webhook: the Standard Webhooks signature and one POST through the worker's SSRF-safe client (undici, its
//    connections kept alive) to a receiver in another process (its CPU not counted), 25 at once, as a fetch's
//    webhooks are sent;
//  - the queue: the lead's two jobs (its email's and its webhook's), sent beforehand, then fetched 50 at a time
//    and completed by the product's pg-boss queue (platform/jobs/queue) around a batch handler that does nothing,
//    over the embedded PostgreSQL (PostgreSQL's own CPU not counted).
// CPU is this process's user + system time (process.cpuUsage) per lead, BENCH_LEADS (1500) leads per round,
// BENCH_ROUNDS (5) rounds alternating the parts; medians. The floor is the sum of the three.
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import { backendDist as dist, buildBackend, median, openBenchDatabase, sampleLeadDelivery, startBenchPostgres, tempDir } from './lib.mjs';

const require = createRequire(import.meta.url);
buildBackend();
const { loadConfig } = dist('platform/config.js');
const { createLogger } = dist('platform/logger.js');
const { createQueue } = dist('platform/jobs/queue.js');
const { composeEml } = dist('platform/email/mailer.js');
const { createSafeFetch } = dist('platform/outbound/http.js');
const { leadEmail } = dist('modules/notifications/emails/templates.js');
const { signedHeaders, webhookBody } = dist('modules/notifications/channels/webhook.channel.js');
const { z } = require('zod');

const LEADS = Number(process.env.BENCH_LEADS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** A fetch's webhooks go out together: 50 jobs a fetch, half of them webhooks. */
const WEBHOOKS_AT_ONCE = 25;
const log = (...a) => console.error('[bench:worker-floor]', ...a);
const logger = createLogger('warn', 'bench');
const dataDir = tempDir('la-bench-worker-floor-');
const config = loadConfig({ PUBLIC_URL: 'https://homes.example.com', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

const signIn = 'https://homes.example.com/verify-email?token=' + crypto.randomBytes(24).toString('base64url');
const emails = Array.from({ length: LEADS }, (_, i) => leadEmail(config, 'agent@example.com', sampleLeadDelivery(i + 1), signIn));
const bodies = Array.from({ length: LEADS }, (_, i) => webhookBody({ type: 'lead.created', timestamp: new Date().toISOString(), data: sampleLeadDelivery(i + 1) }));
const secret = 'whsec_' + crypto.randomBytes(24).toString('base64');

// The agent's receiver, in a process of its own.
const receiver = spawn(process.execPath, ['-e', `
  const http = require('node:http');
  const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(204).end()); });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`], { stdio: ['ignore', 'pipe', 'inherit'] });
const receiverPort = await new Promise((resolve) => receiver.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
const hookUrl = `http://127.0.0.1:${receiverPort}/hook`;
const safeFetch = createSafeFetch({ allowLoopback: true, timeoutMs: config.DELIVERY_TIMEOUT_MS, maxRedirects: 0 });

// The queue: the deliver job's settings (batches of 50), a handler that does nothing.
const pg = await startBenchPostgres(dataDir, logger);
const { url, db } = await openBenchDatabase(pg, 'bench');
let completed = 0;
let onCompleted = () => {};
const job = {
  name: 'bench.floor',
  payload: z.object({ messageId: z.number().int().positive(), attempt: z.number().int().positive() }),
  options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120, heartbeatSeconds: 10 },
  batchSize: 50,
  async handler() {},
  async batchHandler(jobs) {
    completed += jobs.length;
    onCompleted();
    return jobs.map(() => undefined);
  },
};
const sender = createQueue({ connectionString: url, db, logger, config, jobs: [job], work: false });
await sender.start();

/** CPU ms (user + system) of this process per lead for `work()`, which handles LEADS leads. */
async function cpuPerLead(work) {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / LEADS;
}

const parts = {
  'the email: MIME build (nodemailer)': async () => {
    for (let i = 0; i < LEADS; i++) await composeEml(config.MAIL_FROM, emails[i]);
  },
  'the webhook: signature and POST (undici)': async () => {
    for (let from = 0; from < LEADS; from += WEBHOOKS_AT_ONCE) {
      await Promise.all(bodies.slice(from, from + WEBHOOKS_AT_ONCE).map(async (body, k) => {
        const res = await safeFetch(hookUrl, { method: 'POST', headers: signedHeaders(secret, `msg_${from + k}`, body, new Date()), body });
        await res.text();
        if (res.status !== 204) throw new Error(`receiver answered ${res.status}`);
      }));
    }
  },
};
let sent = 0;
/** The two jobs of each lead, sent before the measure; a worker started for them, measured from its start to the last job. */
async function queueRound() {
  const payloads = Array.from({ length: 2 * LEADS }, () => ({ messageId: ++sent, attempt: 1 }));
  for (let from = 0; from < payloads.length; from += 1000) await sender.sendMany(job, payloads.slice(from, from + 1000));
  completed = 0;
  const worker = createQueue({ connectionString: url, db, logger, config, jobs: [job] });
  const done = new Promise((resolve) => (onCompleted = () => completed >= payloads.length && resolve()));
  const before = process.cpuUsage();
  await worker.start();
  await done;
  // pg-boss completes a fetch's jobs after its handler returns: the last completion is in.
  for (;;) {
    const [{ count }] = await db('pgboss.job').where({ name: job.name }).whereNot({ state: 'completed' }).count('* as count');
    if (Number(count) === 0) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const used = process.cpuUsage(before);
  await worker.stop();
  return (used.user + used.system) / 1000 / LEADS;
}

const figures = { ...Object.fromEntries(Object.keys(parts).map((k) => [k, []])), 'the queue: two jobs fetched and completed (pg-boss)': [] };
try {
  // Warm-up: JIT, the receiver's connections, the queue's statements.
  for (const work of Object.values(parts)) await work();
  await queueRound();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, work] of Object.entries(parts)) figures[name].push(await cpuPerLead(work));
    figures['the queue: two jobs fetched and completed (pg-boss)'].push(await queueRound());
    log(`round ${round + 1} of ${ROUNDS}`);
  }
} finally {
  await sender.stop();
  await db.destroy();
  await pg.stop();
  receiver.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nbench:worker-floor — ${ROUNDS} rounds × ${LEADS} leads, CPU (user + system) of this process per lead, medians; ${os.cpus().length} cores, 1-min load ${os.loadavg()[0].toFixed(2)}\n`);
const rows = Object.entries(figures).map(([part, xs]) => ({ part, 'CPU ms per lead': Number(median(xs).toFixed(3)), rounds: xs.map((x) => x.toFixed(3)).join(', ') }));
const floor = rows.reduce((sum, r) => sum + r['CPU ms per lead'], 0);
console.table([...rows, { part: 'the floor: the three together', 'CPU ms per lead': Number(floor.toFixed(3)), rounds: '' }]);
console.log(`Against the worker's goal of ≤ 0.8 ms per delivered lead, the floor leaves ${(0.8 - floor).toFixed(3)} ms for the product's own delivery work.`);

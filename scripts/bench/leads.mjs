#!/usr/bin/env node
// npm run bench:leads — leads through POST /api/listings/{mlsId}/leads to an agent whose custom webhook points at
// a local receiver (loopback, allowed for this run only), on the built product (production mode, its job workers)
// over a throw-away embedded database.
//  - Steady: BENCH_RATE leads a second (50) for BENCH_SECONDS (20): p50/p99 from the lead accepted (the API's
//    201 received) to the signed webhook received.
//  - Burst: BENCH_BURST leads (1000) sent as fast as 50 connections go: time until all are delivered, lost
//    (not received within 60 s) and duplicated (a webhook-id received twice), and leads/s accepted by the API.
// Buyers come from distinct addresses, each in its own network (X-Forwarded-For behind TRUST_PROXY), and each lead
// goes to a listing of its own, so what is measured is delivery: not the per-address limit, nor a listing's guard
// (a burst of leads at one listing is a flood: its leads are held for review, not delivered).
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { buildBackend, freePort, median, percentile, root, startProduct, tempDir } from './lib.mjs';

const require = createRequire(import.meta.url);
buildBackend();
const dist = (p) => require(path.join(root, 'backend', 'dist', p));
const { startEmbeddedPostgres, ensureDatabase } = dist('platform/db/embedded.js');
const { createDb, migrateLatest } = dist('platform/db/knex.js');
const { createLogger } = dist('platform/logger.js');
const { createSecretBox } = dist('platform/crypto/secret-box.js');
const { LeadFormTokens } = dist('modules/leads/form-token.js');

const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BURST = Number(process.env.BENCH_BURST ?? 1000);
const CONNECTIONS = 50;
/** One listing per lead (the warm-up, the steady run and the burst). */
const LISTINGS = 20 + RATE * SECONDS + BURST;
const SESSION_SECRET = crypto.randomBytes(32).toString('hex');
const ENCRYPTION_KEY = crypto.randomBytes(32).toString('hex');
const now = () => performance.timeOrigin + performance.now();
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// The agent's receiver: every webhook, with when it arrived.
const received = new Map(); // webhook-id → { leadId, at, count }
const byLead = new Map(); // lead id → arrival time
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const at = now();
    const id = req.headers['webhook-id'];
    const leadId = JSON.parse(body).data.lead.id;
    const seen = received.get(id);
    if (seen) seen.count++;
    else received.set(id, { leadId, at, count: 1 });
    if (!byLead.has(leadId)) byLead.set(leadId, at);
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

const logger = createLogger('warn', 'bench');
const pg = await startEmbeddedPostgres({ dataDir: tempDir('la-bench-leads-pg-'), port: await freePort(), logger, ephemeral: true });
await ensureDatabase(pg.connectionString('postgres'), 'bench_leads');
const dbUrl = pg.connectionString('bench_leads');
const db = createDb(dbUrl, { max: 4 });
await migrateLatest(db);

// One agent with a custom webhook (emails off: the webhook is what is measured) and a listing per lead.
const [agent] = await db('agents').insert({ name: 'Bench Agent', state: 'FL', source: 'manual' }).returning('id');
await db('notificationSettings').insert({ agentId: agent.id, emailNotifications: false, webhookUrl: hook, webhookSecretEnc: createSecretBox(ENCRYPTION_KEY).seal('whsec_' + crypto.randomBytes(24).toString('base64')) });
const mlsIds = Array.from({ length: LISTINGS }, (_, i) => `BENCH-${i}`);
for (let from = 0; from < LISTINGS; from += 500) {
  await db('listings').insert(mlsIds.slice(from, from + 500).map((mlsId, k) => ({ agentId: agent.id, mlsId, address: `${from + k} Bench St`, city: 'Tampa', state: 'FL', priceCents: 45000000, status: 'active' })));
}

const product = await startProduct({
  DATABASE_URL: dbUrl,
  SESSION_SECRET,
  ENCRYPTION_KEY,
  // The receiver listens on 127.0.0.1: OUTBOUND_ALLOW_LOOPBACK, which production refuses.
  NODE_ENV: 'test',
  OUTBOUND_ALLOW_LOOPBACK: 'true',
  TRUST_PROXY: 'true',
  LOG_LEVEL: 'warn',
  BENCH_LOG_LEVEL: 'warn',
});
const tokens = new LeadFormTokens(SESSION_SECRET);
const accepted = new Map(); // lead id → accepted time
let n = 0;
let errors = 0;

async function sendLead() {
  const i = n++;
  const mlsId = mlsIds[i % LISTINGS];
  const res = await fetch(`${product.url}/api/listings/${mlsId}/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 8) & 255}.${i & 255}.7`, 'sec-fetch-site': 'same-origin', origin: product.url },
    body: JSON.stringify({
      name: `Buyer ${i}`,
      email: `buyer${i}@example.com`,
      message: 'Is it still available?',
      interestedInTour: true,
      interestedInSimilar: false,
      formToken: tokens.issue(mlsId, Date.now() - 5000),
      idempotencyKey: crypto.randomBytes(12).toString('base64url'),
    }),
  });
  const at = now();
  if (res.status !== 201) {
    errors++;
    if (errors <= 3) console.error(`lead ${i}: ${res.status} ${await res.text()}`);
    return;
  }
  const { id } = await res.json();
  accepted.set(id, at);
}

async function waitDelivered(ids, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && ids.some((id) => !byLead.has(id))) await pause(5);
}

try {
  // Warm-up.
  for (let i = 0; i < 20; i++) await sendLead();
  await waitDelivered([...accepted.keys()], 10000);
  accepted.clear();

  // Steady.
  const sends = [];
  const t0 = now();
  for (let k = 0; k < RATE * SECONDS; k++) {
    const due = t0 + (k * 1000) / RATE;
    const wait = due - now();
    if (wait > 0) await pause(wait);
    sends.push(sendLead());
  }
  await Promise.all(sends);
  const steadyIds = [...accepted.keys()];
  await waitDelivered(steadyIds, 30000);
  const lat = steadyIds.filter((id) => byLead.has(id)).map((id) => byLead.get(id) - accepted.get(id));
  console.log(`steady: ${steadyIds.length} leads at ${RATE}/s for ${SECONDS} s; accepted → webhook received p50 ${median(lat).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms (goal ≤ 50 / ≤ 200); not delivered ${steadyIds.length - lat.length}; API errors ${errors}`);

  // Burst.
  accepted.clear();
  errors = 0;
  const before = new Set(received.keys());
  const b0 = now();
  let left = BURST;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (left > 0) {
        left--;
        await sendLead();
      }
    }),
  );
  const acceptedMs = now() - b0;
  const burstIds = [...accepted.keys()];
  await waitDelivered(burstIds, 60000);
  const lastAt = Math.max(...burstIds.filter((id) => byLead.has(id)).map((id) => byLead.get(id)));
  const lost = burstIds.filter((id) => !byLead.has(id)).length;
  const dupes = [...received.entries()].filter(([id, r]) => !before.has(id) && r.count > 1).length;
  const msgsPerLead = new Map();
  for (const [id, r] of received) if (!before.has(id)) msgsPerLead.set(r.leadId, (msgsPerLead.get(r.leadId) ?? 0) + 1);
  const leadDupes = [...msgsPerLead.values()].filter((c) => c > 1).length;
  console.log(
    `burst: ${BURST} leads over ${CONNECTIONS} connections accepted in ${(acceptedMs / 1000).toFixed(2)} s (${Math.round(burstIds.length / (acceptedMs / 1000))} leads/s accepted); all delivered ${((lastAt - b0) / 1000).toFixed(2)} s after the first send (goal ≤ 10 s); lost ${lost + (BURST - burstIds.length)} (API errors ${errors}); duplicated ${dupes + leadDupes}`,
  );
} finally {
  await product.stop();
  receiver.close();
  await db.destroy();
  await pg.stop();
}

#!/usr/bin/env node
// npm run bench:leads — leads through POST /api/listings/{mlsId}/leads to an agent whose custom webhook and a
// REST hook (subscribed through POST /api/v1/hooks with an API key, as Zapier does) both point at a local receiver
// (loopback, allowed for this run only), on the built product (production mode, its job workers) over a throw-away
// embedded database.
//  - Steady: BENCH_RATE leads a second (50) for BENCH_SECONDS (20): p50/p99 from the lead accepted (the API's
//    201 received) to the signed webhook received, and to the REST hook received.
//  - Burst: BENCH_BURST leads (1000) sent as fast as 50 connections go: time until all are delivered to both, lost
//    (not received within 60 s) and duplicated (a webhook-id received twice), and leads/s accepted by the API.
//  - Text alerts: BENCH_SMS_AGENTS agents (200) with text alerts on, one lead each at 20/s: lead accepted → text
//    handed to the provider (the SMS outbox file's Date), p50/p95. Each is its agent's first lead of the minute
//    (later ones in that minute wait for it by design: one text a minute).
// Buyers come from distinct addresses, each in its own network (X-Forwarded-For behind TRUST_PROXY), and each lead
// goes to a listing of its own, so what is measured is delivery: not the per-address limit, nor a listing's guard
// (a burst of leads at one listing is a flood: its leads are held for review, not delivered).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { backendDist as dist, buildBackend, leadFormJson, median, openBenchDatabase, percentile, startBenchPostgres, startProduct, tempDir } from './lib.mjs';

buildBackend();
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

// The agent's receiver: every webhook (/hook) and REST hook (/rest-hook) call, with when it arrived.
const received = new Map(); // webhook-id → { leadId, at, count, path }
const byLead = new Map(); // lead id → arrival time at the custom webhook
const byLeadHook = new Map(); // lead id → arrival time at the REST hook
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const at = now();
    const id = req.headers['webhook-id'];
    const leadId = JSON.parse(body).data.lead.id;
    const seen = received.get(id);
    if (seen) seen.count++;
    else received.set(id, { leadId, at, count: 1, path: req.url });
    const arrivals = req.url === '/rest-hook' ? byLeadHook : byLead;
    if (!arrivals.has(leadId)) arrivals.set(leadId, at);
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

const logger = createLogger('warn', 'bench');
const pg = await startBenchPostgres(tempDir('la-bench-leads-pg-'), logger);
const { url: dbUrl, db } = await openBenchDatabase(pg, 'bench_leads', { max: 4 });

// One agent with a custom webhook (emails off: the webhook is what is measured) and a listing per lead.
const [agent] = await db('agents').insert({ name: 'Bench Agent', state: 'FL', source: 'manual' }).returning('id');
await db('notificationSettings').insert({ agentId: agent.id, emailNotifications: false, webhookUrl: hook, webhookSecretEnc: createSecretBox(ENCRYPTION_KEY).seal('whsec_' + crypto.randomBytes(24).toString('base64')) });
const mlsIds = Array.from({ length: LISTINGS }, (_, i) => `BENCH-${i}`);
for (let from = 0; from < LISTINGS; from += 500) {
  await db('listings').insert(mlsIds.slice(from, from + 500).map((mlsId, k) => ({ agentId: agent.id, mlsId, address: `${from + k} Bench St`, city: 'Tampa', state: 'FL', priceCents: 45000000, status: 'active' })));
}

// An API key for the agent (as the dashboard makes one), used below to subscribe the REST hook through the API.
const apiKey = `la_${crypto.randomBytes(32).toString('base64url')}`;
await db('agentApiKeys').insert({ agentId: agent.id, name: 'Bench', prefix: apiKey.slice(0, 7), keyHash: crypto.createHash('sha256').update(apiKey).digest('hex'), scopes: ['leads:read', 'hooks:write'] });

// Agents with text alerts on (a verified number and consent), one listing each.
const SMS_AGENTS = Number(process.env.BENCH_SMS_AGENTS ?? 200);
// BENCH_REST_HOOK=0: the custom webhook alone (the baseline the REST hook's cost is read against).
const REST_HOOK = process.env.BENCH_REST_HOOK !== '0';
const smsListings = [];
for (let i = 0; i < SMS_AGENTS; i++) {
  const [a] = await db('agents').insert({ name: `Text Agent ${i}`, state: 'FL', source: 'manual' }).returning('id');
  await db('notificationSettings').insert({ agentId: a.id, emailNotifications: false });
  await db('notificationSms').insert({ agentId: a.id, phone: `+1813555${String(1000 + i).slice(-4)}`, status: 'active', consentAt: new Date(), consentText: 'bench', consentIp: '127.0.0.1' });
  await db('listings').insert({ agentId: a.id, mlsId: `BENCH-SMS-${i}`, address: `${i} Text St`, city: 'Tampa', state: 'FL', priceCents: 45000000, status: 'active' });
  smsListings.push(`BENCH-SMS-${i}`);
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

async function sendLead(mlsId = mlsIds[n % LISTINGS], name = null) {
  const i = n++;
  const res = await fetch(`${product.url}/api/listings/${mlsId}/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 8) & 255}.${i & 255}.7`, 'sec-fetch-site': 'same-origin', origin: product.url },
    body: leadFormJson(tokens, mlsId, i, name ?? undefined),
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
  while (Date.now() < until && ids.some((id) => !byLead.has(id) || (REST_HOOK && !byLeadHook.has(id)))) await pause(5);
}

try {
  // The REST hook, subscribed through the public API with the key (as the Zapier app's performSubscribe does).
  if (REST_HOOK) {
    const sub = await fetch(`${product.url}/api/v1/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ targetUrl: hook.replace('/hook', '/rest-hook'), event: 'lead.created' }),
    });
    if (sub.status !== 201) throw new Error(`subscribing the REST hook: ${sub.status} ${await sub.text()}`);
  }

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
  const latHook = steadyIds.filter((id) => byLeadHook.has(id)).map((id) => byLeadHook.get(id) - accepted.get(id));
  console.log(`steady: ${steadyIds.length} leads at ${RATE}/s for ${SECONDS} s; API errors ${errors}`);
  console.log(`  accepted → custom webhook received p50 ${median(lat).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms (goal ≤ 50 / ≤ 200); not delivered ${steadyIds.length - lat.length}`);
  if (REST_HOOK) console.log(`  accepted → REST hook received     p50 ${median(latHook).toFixed(1)} ms, p99 ${percentile(latHook, 99).toFixed(1)} ms (goal ≤ 50 / ≤ 200); not delivered ${steadyIds.length - latHook.length}`);

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
  const delivered = burstIds.filter((id) => byLead.has(id) && (!REST_HOOK || byLeadHook.has(id)));
  const lastAt = Math.max(...delivered.map((id) => Math.max(byLead.get(id), REST_HOOK ? byLeadHook.get(id) : 0)));
  const lost = burstIds.filter((id) => !byLead.has(id)).length;
  const lostHook = REST_HOOK ? burstIds.filter((id) => !byLeadHook.has(id)).length : 0;
  const dupes = [...received.entries()].filter(([id, r]) => !before.has(id) && r.count > 1).length;
  // Each lead must reach each receiver path exactly once (one message per channel and hook).
  const msgsPerLeadPath = new Map();
  for (const [id, r] of received) if (!before.has(id)) msgsPerLeadPath.set(`${r.leadId}${r.path}`, (msgsPerLeadPath.get(`${r.leadId}${r.path}`) ?? 0) + 1);
  const leadDupes = [...msgsPerLeadPath.values()].filter((c) => c > 1).length;
  console.log(
    `burst: ${BURST} leads over ${CONNECTIONS} connections accepted in ${(acceptedMs / 1000).toFixed(2)} s (${Math.round(burstIds.length / (acceptedMs / 1000))} leads/s accepted); all delivered to both the webhook and the REST hook ${((lastAt - b0) / 1000).toFixed(2)} s after the first send (goal ≤ 10 s); lost ${lost + (BURST - burstIds.length)} webhook, ${lostHook + (BURST - burstIds.length)} REST hook (API errors ${errors}); duplicated ${dupes + leadDupes}`,
  );

  // Text alerts: one lead per agent (each its agent's first of the minute), 20 a second.
  if (SMS_AGENTS === 0) throw new Error('skip');
  accepted.clear();
  errors = 0;
  const smsSends = [];
  const s0 = now();
  for (let k = 0; k < smsListings.length; k++) {
    const wait = s0 + k * 50 - now();
    if (wait > 0) await pause(wait);
    smsSends.push(sendLead(smsListings[k], `Texted ${k}`));
  }
  await Promise.all(smsSends);
  const smsDir = path.join(product.dataDir, 'sms-outbox');
  const handed = new Map(); // buyer name → time handed to the provider
  const smsUntil = Date.now() + 60000;
  while (Date.now() < smsUntil && handed.size < accepted.size) {
    for (const f of await fs.promises.readdir(smsDir).catch(() => [])) {
      const text = await fs.promises.readFile(path.join(smsDir, f), 'utf8');
      const name = /new lead from (Texted \d+) /.exec(text)?.[1];
      const at = Date.parse(/^Date: (.*)$/m.exec(text)?.[1] ?? '');
      if (name && !handed.has(name)) handed.set(name, at);
    }
    await pause(50);
  }
  const smsLat = [];
  for (const [name, at] of handed) {
    const leadRow = await db('leads').where({ name }).first('id');
    if (leadRow && accepted.has(leadRow.id)) smsLat.push(at - accepted.get(leadRow.id));
  }
  console.log(
    `text alerts: ${smsListings.length} agents, one lead each at 20/s; accepted → text handed to the provider p50 ${median(smsLat).toFixed(0)} ms, p95 ${percentile(smsLat, 95).toFixed(0)} ms (goal p95 ≤ 5 s); not handed over ${accepted.size - smsLat.length}; API errors ${errors}`,
  );
} catch (err) {
  if (err.message !== 'skip') throw err;
} finally {
  await product.stop();
  receiver.close();
  await db.destroy();
  await pg.stop();
}

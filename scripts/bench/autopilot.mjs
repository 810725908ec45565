#!/usr/bin/env node
// bench:autopilot — the MLS change feed and autopilot on a demo feed of 50,000 listings (DESIGN §7, issue 25):
//  1. initial replication of the feed: wall time and peak RSS of the process doing it (a child of its own), beside a
//     baseline in the same run: the same keyset pages read from the same demo Web API without applying them;
//  2. an incremental poll carrying 1,000 changes: wall time;
//  3. change → scheduled draft plus its email, over 200 new listings made at random moments over 3 minutes while the
//     product polls every minute (MLS_POLL_INTERVAL_S=60, real time): p50, p95, max, from the listing's
//     ModificationTimestamp to the email's delivery;
//  4. duplicates after 3 replays (the whole feed from an empty watermark, and every event published again);
//  5. charges inside the veto window: every charge's time against its draft's launchAt.
// The only thing scaled is the veto window (AUTOPILOT_TIME_SCALE=0.02: 1 hour lasts 72 s), so the drafts launch
// during the run and step 5 has charges to check; the poll interval, the feed and the latencies are real.
//   node scripts/bench/autopilot.mjs [--listings 50000] [--changes 200] [--spread 180] [--no-build]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { backendDist as dist, root, buildBackend, browserSession, freePort, numberArg as arg, percentile, median, startProduct, tempDir } from './lib.mjs';

const LISTINGS = arg('listings', 50_000);
const CHANGES = arg('changes', 200);
const AGENTS = 15; // the MLS search allows 20 per minute per address
const SPREAD_S = arg('spread', 180);
const MEMBERS = 500;
const GOALS = { replicationS: 60, replicationRssMb: 300, incrementalS: 5, latencyP95S: 90 };

if (!process.argv.includes('--no-build')) buildBackend();
const { createDb } = dist('platform', 'db', 'knex.js');
const { writeDemoDataset, makeDemoChange } = dist('modules', 'mls', 'index.js');

const CITIES = [
  ['Tampa', '33606', 27.94, -82.46], ['Orlando', '32801', 28.54, -81.38], ['Miami', '33130', 25.77, -80.2],
  ['Sarasota', '34236', 27.33, -82.54], ['Naples', '34102', 26.14, -81.79], ['Jacksonville', '32202', 30.33, -81.66],
];
const member = (k) => `BA${String(k).padStart(4, '0')}`;
const BASE_T = Date.parse('2026-01-01T00:00:00Z');

function property(i) {
  const [city, zip, lat, lng] = CITIES[i % CITIES.length];
  const price = 250_000 + ((i * 7919) % 900) * 1000;
  return {
    ListingKey: `BX${String(i).padStart(7, '0')}`,
    ListAgentMlsId: member(i % MEMBERS),
    ListAgentFullName: `Bench Agent ${i % MEMBERS}`,
    ListOfficeName: 'Bench Realty',
    OriginatingSystemName: 'Bench MLS',
    StandardStatus: i % 7 === 0 ? 'Closed' : 'Active',
    ListPrice: price,
    ...(i % 7 === 0 ? { ClosePrice: price - 5000, CloseDate: '2026-09-15' } : {}),
    UnparsedAddress: `${100 + (i % 9000)} ${['Palm', 'Bayshore', 'Magnolia', 'Cypress'][i % 4]} Ave`,
    City: city,
    StateOrProvince: 'FL',
    PostalCode: zip,
    Latitude: lat + (i % 100) / 1000,
    Longitude: lng - (i % 100) / 1000,
    BedroomsTotal: 2 + (i % 4),
    BathroomsTotalInteger: 1 + (i % 3),
    LivingArea: 1100 + (i % 50) * 40,
    YearBuilt: 1950 + (i % 70),
    PropertyType: 'Residential',
    PropertySubType: 'Single Family Residence',
    PublicRemarks: `Bright ${2 + (i % 4)}-bedroom home in ${city} with an updated kitchen and a screened lanai, minutes from the beaches.`,
    Appliances: ['Dishwasher', 'Range', 'Refrigerator'],
    InteriorFeatures: ['Open Floorplan'],
    // Three records share each timestamp: replication must page by the keyset, not the time alone.
    ModificationTimestamp: new Date(BASE_T + Math.floor(i / 3) * 1000).toISOString(),
    Media: Array.from({ length: 6 }, (_, k) => ({ MediaKey: `BX${i}-${k}`, MediaCategory: 'Photo', MimeType: 'image/jpeg', Order: k + 1, MediaURL: `/demo-mls/photos/exterior-${String((i % 40) + 1).padStart(2, '0')}.jpg` })),
  };
}

function child(mode, url) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(root, 'scripts', 'bench', 'autopilot-replicate.mjs'), '--mode', mode, '--url', url], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`${mode} exited ${code}`))));
  });
}

/** A forced poll, waiting out the product's own scheduled poll if it holds the feed. */
async function replicate(url) {
  for (let i = 0; ; i++) {
    try {
      return await child('replicate', url);
    } catch (err) {
      if (i > 60) throw err;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function until(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v.done) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s (${JSON.stringify(v)})`);
    await sleep(2000);
  }
}

async function main() {
  const dataDir = tempDir('la-bench-autopilot-');
  const port = String(await freePort());
  const pgPort = String(await freePort());
  const env = { DATA_DIR: dataDir, PORT: port, EMBEDDED_PG_PORT: pgPort, NODE_ENV: 'test', AUTOPILOT_TIME_SCALE: '0.02', MLS_POLL_INTERVAL_S: '60', BENCH_LOG_LEVEL: 'warn', LOG_LEVEL: 'warn' };
  // First the product without jobs (nothing polls): the feed is seeded and replicated by the measuring processes.
  let product = await startProduct({ ...env, JOBS_ENABLED: 'false' });
  const url = product.databaseUrl();
  let db = createDb(url, { max: 4 });
  const results = {};
  try {
    console.error(`[bench] seeding ${LISTINGS.toLocaleString('en-US')} listings of ${MEMBERS} members…`);
    const members = Array.from({ length: MEMBERS }, (_, k) => ({
      MemberKey: `M-${member(k)}`, MemberMlsId: member(k), MemberFirstName: 'Bench', MemberLastName: `Agent ${k}`, MemberFullName: `Bench Agent ${k}`,
      MemberEmail: `bench.agent.${k}@example.com`, MemberStateOrProvince: 'FL', MemberStatus: 'Active', OfficeName: 'Bench Realty',
    }));
    await writeDemoDataset(db, { members, properties: [] });
    for (let i = 0; i < LISTINGS; i += 5000) await writeDemoDataset(db, { members: [], properties: Array.from({ length: Math.min(5000, LISTINGS - i) }, (_, k) => property(i + k)) });
    await db.raw('analyze demo_mls_properties');

    // 1. Initial replication, beside the read-only baseline (same pages, same server, nothing applied).
    const baseline = await child('read', url);
    const initial = await replicate(url);
    results.initial = { ...initial, baselineMs: baseline.ms, baselineRssMb: baseline.maxRssMb };
    console.error(`[bench] initial replication ${s(initial.ms)} (${initial.records} records, peak RSS ${initial.maxRssMb} MB); baseline read ${s(baseline.ms)}`);

    // 2. An incremental poll carrying 1,000 changes (500 price drops, 500 under contract).
    await db.raw(`
      update demo_mls_properties set
        record = case when n % 2 = 0 then jsonb_set(record, '{ListPrice}', to_jsonb(((record->>'ListPrice')::int - 10000))) else jsonb_set(record, '{StandardStatus}', '"Pending"') end,
        modification_timestamp = clock_timestamp()
      from (select listing_key, row_number() over (order by listing_key) as n from demo_mls_properties where standard_status = 'Active' and listing_key like 'BX%' order by listing_key limit 1000) picked
      where demo_mls_properties.listing_key = picked.listing_key`);
    results.incremental = await replicate(url);
    console.error(`[bench] incremental poll ${s(results.incremental.ms)} (${results.incremental.records} records, ${results.incremental.events} events)`);

    // Agents with autopilot on (a 1-hour window: 72 s at this time scale) and a saved test card, made as a browser makes them.
    const agents = [];
    for (let k = 1; k <= AGENTS; k++) {
      const browser = browserSession(product.url);
      const found = await browser.json('POST', '/api/mls/search-agent', { name: `Bench Agent ${k}`, state: 'FL' });
      const agent = await browser.json('POST', '/api/agents', { ...found, brokerage: null, phone: null });
      // Autopilot is the signed-in agent's (DESIGN §3): this browser signs in as its agent, as opening the emailed
      // link would leave it (the agent verified, the session signed in), written to the tables like the seed.
      await db('agents').where({ id: agent.id }).update({ email: found.email, verifiedAt: db.fn.now() });
      await db.raw(`update sessions set data = data || jsonb_build_object('agentId', ?::int) where data->'wizardAgentIds' @> to_jsonb(?::int)`, [agent.id, agent.id]);
      // The product reads a session from memory for a few seconds: on once it answers this browser as the agent.
      for (;;) {
        const me = await fetch(`${product.url}/api/auth/me`, { headers: { cookie: browser.cookie } });
        if (me.status === 200) break;
        await sleep(100);
      }
      await browser.json('PUT', `/api/agents/${agent.id}/autopilot`, { enabled: true, vetoWindowHours: 1 });
      const setup = await browser.json('POST', `/api/agents/${agent.id}/saved-card/setup`, {});
      await browser.json('POST', '/api/payments/local/confirm', { clientSecret: setup.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' });
      agents.push({ id: agent.id, mlsId: found.mlsId });
    }

    // Now the product with its jobs: it polls every minute and autopilot acts (its database restarts with it).
    await db.destroy();
    await product.stop();
    product = await startProduct({ ...env, JOBS_ENABLED: 'true' });
    db = createDb(url, { max: 4 });
    await sleep(2000);

    // 3. 200 new listings at random moments over the spread; each one's latency: its ModificationTimestamp → the email sent.
    console.error(`[bench] ${CHANGES} new listings over ${SPREAD_S} s while the product polls every 60 s…`);
    const at = Array.from({ length: CHANGES }, () => Math.random() * SPREAD_S * 1000).sort((a, b) => a - b);
    const started = performance.now();
    const changes = [];
    for (let i = 0; i < CHANGES; i++) {
      const wait = at[i] - (performance.now() - started);
      if (wait > 0) await sleep(wait);
      const a = agents[i % agents.length];
      const made = await makeDemoChange(db, 'new-listing', a.mlsId);
      changes.push({ key: made.listingKey, t0: Date.parse(made.modificationTimestamp) });
    }
    const keys = changes.map((c) => c.key);
    const latency = await until(
      'every draft emailed',
      async () => {
        const rows = (
          await db.raw(
            `select r.listing_key, r.created_at as scheduled_at, d.created_at as emailed_at
               from autopilot_runs r
               join notification_messages m on m.campaign_id = r.campaign_id and m.kind = 'autopilot.scheduled'
               join notification_deliveries d on d.message_id = m.id and d.status = 'succeeded'
              where r.listing_key = any(?::text[])`,
            [keys],
          )
        ).rows;
        return { done: rows.length >= CHANGES, rows, emailed: rows.length };
      },
      8 * 60_000,
    );
    const byKey = new Map(latency.rows.map((r) => [r.listing_key, r]));
    const toEmail = changes.map((c) => new Date(byKey.get(c.key).emailed_at).getTime() - c.t0);
    const toDraft = changes.map((c) => new Date(byKey.get(c.key).scheduled_at).getTime() - c.t0);
    results.latency = { p50: percentile(toEmail, 50), p95: percentile(toEmail, 95), max: Math.max(...toEmail), draftP95: percentile(toDraft, 95), draftMedian: median(toDraft) };
    console.error(`[bench] change → email p95 ${s(results.latency.p95)}`);

    // 5. The drafts launch once their window is over: no charge may come before its launchAt.
    await until(
      'every draft launched',
      async () => {
        const { rows } = await db.raw(`select count(*) filter (where status = 'launched')::int as launched, count(*)::int as runs from autopilot_runs where listing_key = any(?::text[])`, [keys]);
        return { done: rows[0].launched >= CHANGES, ...rows[0] };
      },
      6 * 60_000,
    );
    const charges = (
      await db.raw(
        `select count(*)::int as charges, count(*) filter (where p.succeeded_at < r.launch_at)::int as inside
           from payments p join autopilot_runs r on r.campaign_id = p.campaign_id
          where p.status = 'succeeded' and r.listing_key = any(?::text[])`,
        [keys],
      )
    ).rows[0];
    results.charges = charges;

    // 4. Three replays: the whole feed from an empty watermark, and every event published again to autopilot.
    const counts = async () =>
      (
        await db.raw(`select
          (select count(*) from mls_listing_events)::int as events,
          (select count(*) from autopilot_runs)::int as runs,
          (select count(*) from campaigns)::int as campaigns,
          (select count(*) from payments where status = 'succeeded')::int as charges,
          (select count(*) from pgboss.job where name = 'campaigns.launch')::int as launches`)
      ).rows[0];
    const before = await counts();
    const eventIds = (await db.raw(`select id from mls_listing_events where listing_key = any(?::text[])`, [keys])).rows.map((r) => Number(r.id));
    const { PgBoss } = await import('pg-boss');
    const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false, migrate: false });
    boss.on('error', () => undefined);
    await boss.start();
    for (let i = 0; i < 3; i++) {
      await db('mls_feeds').update({ watermark_timestamp: null, watermark_key: null });
      await replicate(url);
      await boss.publish('mls.listing-events', { feed: 'demo', eventIds });
    }
    await sleep(20_000);
    await boss.stop({ graceful: false, close: true });
    const after = await counts();
    results.replays = Object.fromEntries(Object.keys(before).map((k) => [k, after[k] - before[k]]));
  } finally {
    await db.destroy();
    await product.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const r = results;
  console.log(`\nAutopilot benchmark — a demo feed of ${LISTINGS.toLocaleString('en-US')} listings, ${CHANGES} changes, polls every 60 s\n`);
  console.table([
    { measure: 'initial replication', value: s(r.initial.ms), 'peak RSS': `${r.initial.maxRssMb} MB`, detail: `${r.initial.records} records in ${r.initial.pages} pages; baseline (read only) ${s(r.initial.baselineMs)}, ${r.initial.baselineRssMb} MB: ratio ${(r.initial.ms / r.initial.baselineMs).toFixed(2)}` },
    { measure: 'incremental poll, 1,000 changes', value: s(r.incremental.ms), 'peak RSS': `${r.incremental.maxRssMb} MB`, detail: `${r.incremental.records} records, ${r.incremental.events} events` },
    { measure: 'change → scheduled draft + email', value: `p95 ${s(r.latency.p95)}`, 'peak RSS': '', detail: `p50 ${s(r.latency.p50)}, max ${s(r.latency.max)}; change → draft p95 ${s(r.latency.draftP95)}` },
    { measure: 'duplicates after 3 replays', value: String(Object.values(r.replays).reduce((a, b) => a + b, 0)), 'peak RSS': '', detail: JSON.stringify(r.replays) },
    { measure: 'charges inside the window', value: String(r.charges.inside), 'peak RSS': '', detail: `${r.charges.charges} charges, each checked against its draft's launchAt` },
  ]);
  const dupes = Object.values(r.replays).reduce((a, b) => a + b, 0);
  const checks = [
    [r.initial.ms <= GOALS.replicationS * 1000, `initial replication ≤ ${GOALS.replicationS} s (${s(r.initial.ms)})`],
    [r.initial.maxRssMb <= GOALS.replicationRssMb, `peak RSS ≤ ${GOALS.replicationRssMb} MB (${r.initial.maxRssMb} MB)`],
    [r.incremental.ms <= GOALS.incrementalS * 1000, `incremental poll ≤ ${GOALS.incrementalS} s (${s(r.incremental.ms)})`],
    [r.latency.p95 <= GOALS.latencyP95S * 1000, `change → draft + email p95 ≤ ${GOALS.latencyP95S} s (${s(r.latency.p95)})`],
    [dupes === 0, `0 duplicates after 3 replays (${dupes})`],
    [r.charges.inside === 0 && r.charges.charges >= CHANGES, `0 charges inside the window (${r.charges.inside} of ${r.charges.charges})`],
  ];
  const failed = checks.filter(([ok]) => !ok);
  console.log(`\n${failed.length ? 'NOT OK' : 'OK'}: ${checks.map(([, t]) => t).join(', ')}`);
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

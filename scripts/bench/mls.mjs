#!/usr/bin/env node
// MLS load benchmark: 1,000 RESO-shaped Property records (with Media) written into the demo MLS's tables, read
// back through its Web API by the RESO provider (its paging included), the real mapping and the real bulk upsert
// (importMlsListings, the function POST /api/mls/load runs), then GET /api/agents/:id/listings
// through the real Koa app on 127.0.0.1. Embedded PostgreSQL in a temp folder; everything is removed at the end.
//   node scripts/bench/mls.mjs [--listings 1000] [--requests 50] [--no-build]
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { backendDist as dist, buildBackend, median, numberArg as arg, openBenchDatabase, percentile, startBenchPostgres, tempDir } from './lib.mjs';

const LISTINGS = arg('listings', 1000);
const REQUESTS = arg('requests', 50);
const TARGET_LOAD_MS = 2000;

if (!process.argv.includes('--no-build')) buildBackend();
const { loadConfig } = dist('platform', 'config.js');
const { createLogger } = dist('platform', 'logger.js');
const { createQueue } = dist('platform', 'jobs', 'queue.js');
const { jobs } = dist('jobs.js');
const { createApp } = dist('app.js');
const { createDemoMlsProvider, importMlsListings, writeDemoDataset } = dist('modules', 'mls', 'index.js');

const MEMBER = 'BENCH-0001';
const CITIES = [
  ['Tampa', '33606', 27.94, -82.46], ['Orlando', '32801', 28.54, -81.38], ['Miami', '33130', 25.77, -80.2],
  ['Sarasota', '34236', 27.33, -82.54], ['Naples', '34102', 26.14, -81.79], ['Jacksonville', '32202', 30.33, -81.66],
];
const STREETS = ['Palm', 'Bayshore', 'Magnolia', 'Cypress', 'Harbor', 'Sunset', 'Orange', 'Lake'];
const SUFFIX = ['Ave', 'St', 'Dr', 'Blvd', 'Ct', 'Way'];

/** A full RESO Property record with 8 photos expanded, as a Web API returns it. */
function property(i) {
  const [city, zip, lat, lng] = CITIES[i % CITIES.length];
  const closed = i % 3 === 0;
  const price = 250000 + ((i * 7919) % 900) * 1000;
  const day = String((i % 28) + 1).padStart(2, '0');
  return {
    ListingKey: `BENCH${String(i).padStart(6, '0')}`,
    ListAgentMlsId: MEMBER,
    ListAgentFullName: 'Bench Agent',
    ListOfficeName: 'Bench Realty',
    OriginatingSystemName: 'Bench MLS',
    StandardStatus: closed ? 'Closed' : i % 10 === 1 ? 'Coming Soon' : 'Active',
    ListPrice: price,
    ...(closed ? { ClosePrice: price - 5000, CloseDate: `2026-09-${day}` } : {}),
    ListingContractDate: `2026-08-${day}`,
    DaysOnMarket: i % 90,
    StreetNumber: String(100 + i),
    StreetName: STREETS[i % STREETS.length],
    StreetSuffix: SUFFIX[i % SUFFIX.length],
    City: city,
    StateOrProvince: 'FL',
    PostalCode: zip,
    Latitude: lat + (i % 100) / 1000,
    Longitude: lng - (i % 100) / 1000,
    BedroomsTotal: 2 + (i % 4),
    BathroomsTotalInteger: 1 + (i % 3),
    LivingArea: 1100 + (i % 50) * 40,
    YearBuilt: 1950 + (i % 70),
    LotSizeAcres: 0.1 + (i % 20) / 100,
    GarageSpaces: i % 3,
    PropertyType: 'Residential',
    PropertySubType: i % 5 === 0 ? 'Condominium' : 'Single Family Residence',
    PublicRemarks: `Bright ${2 + (i % 4)}-bedroom home in ${city} with an updated kitchen, a screened lanai and a short drive to the beaches. `.repeat(3),
    Heating: ['Central', 'Electric'],
    Cooling: ['Central Air'],
    Appliances: ['Dishwasher', 'Range', 'Refrigerator', 'Microwave'],
    InteriorFeatures: ['Open Floorplan', 'Walk-In Closet(s)'],
    ExteriorFeatures: ['Sliding Doors'],
    ParkingFeatures: ['Attached', 'Driveway'],
    FireplaceYN: i % 4 === 0,
    AssociationFee: i % 2 ? 150 : null,
    AssociationFeeFrequency: i % 2 ? 'Monthly' : null,
    Utilities: ['Public Water', 'Public Sewer'],
    ElementarySchool: 'Bench Elementary School',
    MiddleOrJuniorSchool: 'Bench Middle School',
    HighSchool: 'Bench High School',
    HighSchoolDistrict: 'Bench County Schools',
    Media: Array.from({ length: 8 }, (_, k) => ({
      MediaKey: `BENCH${i}-${k}`,
      MediaCategory: 'Photo',
      MimeType: 'image/jpeg',
      Order: 8 - k,
      MediaURL: `https://media.example.com/BENCH${i}/${8 - k}.jpg`,
    })),
  };
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;

async function main() {
  const dataDir = tempDir('la-bench-mls-');
  const logger = createLogger('warn', 'bench-mls');
  let pg;
  let db;
  let queue;
  let server;
  const cleanup = async () => {
    await new Promise((r) => (server ? server.close(r) : r()));
    await queue?.stop().catch(() => undefined);
    await db?.destroy().catch(() => undefined);
    await pg?.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => cleanup().finally(() => process.exit(130)));

  try {
    pg = await startBenchPostgres(dataDir, logger);
    const opened = await openBenchDatabase(pg, 'bench', { max: 10 });
    const url = opened.url;
    db = opened.db;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, SESSION_SECRET: 'bench-session-secret-that-is-long-enough-42' });
    queue = createQueue({ connectionString: url, db, logger, config, jobs, work: false });
    await queue.start();
    const app = createApp({ config, db, logger: createLogger('silent'), queue });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${server.address().port}`;

    // An agent owned by this "browser" (the session cookie), then given an MLS identity.
    const created = await fetch(`${base}/api/agents`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Agent', state: 'FL', manualEntry: true }),
    });
    if (created.status !== 201) throw new Error(`agent create answered ${created.status}`);
    const cookie = created.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const agent = await created.json();
    await db('agents').where({ id: agent.id }).update({ source: 'mls', mlsSystem: config.mlsSystem, mlsId: MEMBER });

    const properties = Array.from({ length: LISTINGS }, (_, i) => property(i));
    await writeDemoDataset(db, { members: [], properties });
    const provider = createDemoMlsProvider({ db, seed: false });

    const load = async () => {
      const statements = [];
      // The demo MLS's own reads (its Web API answering the provider) are the MLS's work, not the load's.
      const onQuery = (q) => !/demo_mls_/.test(q.sql) && statements.push(q.sql.split(/\s+/).slice(0, 3).join(' '));
      db.on('query', onQuery);
      const t0 = performance.now();
      const result = await importMlsListings({ db, provider, agentId: agent.id, memberMlsId: MEMBER, log: logger });
      const ms = performance.now() - t0;
      db.off('query', onQuery);
      return { ms, result, statements };
    };
    const first = await load(); // inserts
    const second = await load(); // the same listings again: updates in place
    const rows = Number((await db('listings').where({ agentId: agent.id }).count({ n: '*' }).first()).n);

    // Every page, as the wizard's loader reads them (limit 500, then the cursor).
    const get = async () => {
      const t0 = performance.now();
      let count = 0;
      let bytes = 0;
      let cursor = null;
      do {
        const q = `?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await fetch(`${base}/api/agents/${agent.id}/listings${q}`, { headers: { cookie, 'Accept-Encoding': 'gzip' } });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`GET listings answered ${res.status}: ${body.slice(0, 200)}`);
        const page = JSON.parse(body);
        count += page.listings.length;
        bytes += Buffer.byteLength(body);
        cursor = page.nextCursor;
      } while (cursor);
      return { ms: performance.now() - t0, count, bytes };
    };
    for (let i = 0; i < 5; i++) await get(); // warm-up
    const samples = [];
    let last;
    for (let i = 0; i < REQUESTS; i++) {
      last = await get();
      samples.push(last.ms);
    }

    const describe = (s) => {
      const counts = {};
      for (const x of s) counts[x] = (counts[x] ?? 0) + 1;
      return Object.entries(counts).map(([k, v]) => `${v}× ${k}`).join(', ');
    };
    console.log(`\nMLS load benchmark — ${LISTINGS} RESO Property records × 8 photos, agent ${agent.id}\n`);
    console.table([
      { step: 'load #1 (insert)', 'wall time': fmt(first.ms), 'SQL statements': first.statements.length, loaded: first.result.loaded, skipped: first.result.skipped },
      { step: 'load #2 (same data: update)', 'wall time': fmt(second.ms), 'SQL statements': second.statements.length, loaded: second.result.loaded, skipped: second.result.skipped },
    ]);
    console.log(`  statements of load #1: ${describe(first.statements)}`);
    console.log(`  rows for the agent after two loads: ${rows}`);
    console.table([
      {
        request: `GET /api/agents/${agent.id}/listings (every page, limit 500)`,
        listings: last.count,
        'body (JSON)': `${(last.bytes / 1024).toFixed(0)} KiB`,
        requests: REQUESTS,
        p50: fmt(median(samples)),
        p95: fmt(percentile(samples, 95)),
        max: fmt(Math.max(...samples)),
      },
    ]);
    const ok = first.ms <= TARGET_LOAD_MS && second.ms <= TARGET_LOAD_MS && rows === LISTINGS;
    console.log(`\n${ok ? 'OK' : 'NOT OK'}: load ≤ ${TARGET_LOAD_MS} ms (${fmt(Math.max(first.ms, second.ms))}), no duplicates (${rows} rows)`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

#!/usr/bin/env node
// npm run bench:launch — time from a confirmed payment (markCampaignPaid committed) to the campaign being
// active, over 20 campaigns, on the sandbox ad platform and on Meta. "Meta" is the fake Graph API server the
// crash test uses (backend/src/modules/campaigns/testing/fake-graph-server.ts) on loopback, answering each
// call after BENCH_META_LATENCY_MS (default 150 ms) to stand in for Meta's response times; nothing leaves
// the machine. Product queue settings and the production launch job; a throw-away embedded database.
//   BENCH_CAMPAIGNS=20  BENCH_META_LATENCY_MS=150
import fs from 'node:fs';
import { backendDist as dist, buildBackend, median, openBenchDatabase, percentile, startBenchPostgres, tempDir } from './lib.mjs';

buildBackend();
const { createQueue } = dist('platform/jobs/queue.js');
const { jobs: allJobs } = dist('jobs.js');
const { loadConfig } = dist('platform/config.js');
const { createLogger } = dist('platform/logger.js');
const { markCampaignPaid, launchCampaignJob } = dist('modules/campaigns/index.js');
const { insertListingWithDraftCampaign: insertDraftCampaign } = dist('testing/rows.js');
const { startFakeGraph } = dist('modules/campaigns/testing/fake-graph-server.js');
const { META_TEST_ENV } = dist('modules/campaigns/testing/meta-graph-shapes.js');

const N = Number(process.env.BENCH_CAMPAIGNS ?? 20);
const LATENCY = Number(process.env.BENCH_META_LATENCY_MS ?? 150);
const WARMUP = 2;
const logger = createLogger('warn', 'bench');
const dataDir = tempDir('la-bench-launch-');
const pg = await startBenchPostgres(dataDir, logger);
const now = () => performance.timeOrigin + performance.now();
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(mode) {
  const name = `bench_${mode}`;
  const { url, db } = await openBenchDatabase(pg, name, { max: 20 });
  const graph = mode === 'meta' ? await startFakeGraph({ latencyMs: LATENCY }) : null;
  const config = loadConfig({ LOG_LEVEL: 'warn', ...(graph ? { ...META_TEST_ENV, META_GRAPH_URL: graph.url } : {}) });
  const queue = createQueue({ connectionString: url, db, logger, config, jobs: allJobs, workers: [launchCampaignJob.name] });
  await queue.start();

  const pay = async (campaignId) => {
    await db.transaction((trx) => markCampaignPaid(trx, queue, campaignId, 'bench'));
    return now(); // the payment is committed: the clock starts
  };
  const status = async (ids) => {
    const rows = await db('campaigns').whereIn('id', ids).select('id', 'status', 'launchError');
    for (const r of rows) if (r.status === 'launch_failed') throw new Error(`campaign ${r.id}: ${r.launchError}`);
    return new Map(rows.map((r) => [r.id, r.status]));
  };

  // One at a time, each from an idle worker.
  const sequential = [];
  for (let i = 0; i < N + WARMUP; i++) {
    const { campaignId } = await insertDraftCampaign(db);
    await pause(30);
    const paidAt = await pay(campaignId);
    while ((await status([campaignId])).get(campaignId) !== 'active') await pause(2);
    if (i >= WARMUP) sequential.push(now() - paidAt);
  }

  // A burst: N payments confirmed at once.
  const ids = [];
  for (let i = 0; i < N; i++) ids.push((await insertDraftCampaign(db)).campaignId);
  const paidAt = new Map(await Promise.all(ids.map(async (id) => [id, await pay(id)])));
  const burst = new Map();
  while (burst.size < ids.length) {
    for (const [id, s] of await status(ids)) if (s === 'active' && !burst.has(id)) burst.set(id, now() - paidAt.get(id));
    await pause(5);
  }

  const calls = graph ? Object.values(graph.posts).reduce((a, b) => a + b, 0) : 0;
  await queue.stop();
  await db.destroy();
  await graph?.close();
  const row = (label, xs) => ({
    platform: mode === 'meta' ? `meta (fake Graph, ${LATENCY} ms/call)` : 'sandbox',
    run: label,
    campaigns: xs.length,
    'median ms': Math.round(median(xs)),
    'p95 ms': Math.round(percentile(xs, 95)),
    'max ms': Math.round(Math.max(...xs)),
  });
  return { rows: [row('one at a time', sequential), row(`burst of ${N}`, [...burst.values()])], calls };
}

const sandbox = await run('sandbox');
const meta = await run('meta');
console.log(`\nbench:launch — confirmed payment (markCampaignPaid committed) → campaign active, ${N} campaigns per run\n`);
console.table([...sandbox.rows, ...meta.rows]);
console.log(`Meta runs: ${meta.calls} Graph POSTs for ${2 * N + WARMUP} launches (campaign, ad set, image, creative, ad each). Targets (Meta): median ≤ 500 ms one at a time, ≤ 1200 ms in the burst.`);

await pg.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

#!/usr/bin/env node
// npm run bench:jobs — how quickly an idle queue starts a new job (send → handler start), over 100 jobs,
// with the product's queue settings (LISTEN/NOTIFY, batching), on a throw-away embedded database.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { backendDist as dist, buildBackend, median, openBenchDatabase, percentile, startBenchPostgres, tempDir } from './lib.mjs';

const require = createRequire(import.meta.url);
buildBackend();
const { createQueue } = dist('platform/jobs/queue.js');
const { loadConfig } = dist('platform/config.js');
const { createLogger } = dist('platform/logger.js');
const { z } = require('zod');

const N = Number(process.env.BENCH_JOBS ?? 100);
const logger = createLogger('warn', 'bench');
const dataDir = tempDir('la-bench-jobs-');
const pg = await startBenchPostgres(dataDir, logger);
const { url, db } = await openBenchDatabase(pg, 'bench');

let onRun = () => {};
const job = {
  name: 'bench.pickup',
  payload: z.object({ sentAt: z.number() }),
  options: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
  async handler({ sentAt }) {
    onRun(performance.timeOrigin + performance.now() - sentAt);
  },
};
const queue = createQueue({ connectionString: url, db, logger, config: loadConfig({ LOG_LEVEL: 'warn' }), jobs: [job] });
await queue.start();

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const latencies = [];
for (let i = 0; i < N + 5; i++) {
  // Idle between jobs, so each one is picked up from an idle worker.
  await pause(30);
  const done = new Promise((resolve) => (onRun = resolve));
  await queue.send(job, { sentAt: performance.timeOrigin + performance.now() });
  const ms = await done;
  if (i >= 5) latencies.push(ms); // the first few warm the connection pool
}

// Throughput, for reference: 1,000 jobs sent at once.
let count = 0;
const burstDone = new Promise((resolve) => {
  onRun = () => {
    if (++count === 1000) resolve();
  };
});
const t0 = performance.now();
await Promise.all(Array.from({ length: 1000 }, () => queue.send(job, { sentAt: 0 })));
await burstDone;
const burstSeconds = (performance.now() - t0) / 1000;

console.log(`\nbench:jobs — idle-queue pick-up latency (send → handler start) over ${N} jobs\n`);
console.table([
  {
    'p50 ms': median(latencies).toFixed(1),
    'p95 ms': percentile(latencies, 95).toFixed(1),
    'max ms': Math.max(...latencies).toFixed(1),
    'burst of 1,000: jobs/s': Math.round(1000 / burstSeconds),
  },
]);

await queue.stop();
await db.destroy();
await pg.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

#!/usr/bin/env node
// One replication measure of bench:autopilot, in a process of its own (so its peak RSS is the replication's alone):
//   --mode replicate  the product's poll (pollFeed, forced) over the demo feed, events published through pg-boss
//   --mode read       the baseline: the same keyset pages read from the same demo Web API, nothing applied
// Prints one JSON line: { ms, maxRssMb, pages, records, applied, events }.
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { root } from './lib.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const url = arg('url');
const mode = arg('mode');
const top = Number(arg('top') ?? 1000);
const require = createRequire(import.meta.url);
const dist = (...p) => require(path.join(root, 'backend', 'dist', ...p));
const { createDb } = dist('platform', 'db', 'knex.js');
const { createLogger } = dist('platform', 'logger.js');
const { bossDbFor } = dist('platform', 'jobs', 'queue.js');
const { createDemoMlsProvider, pollFeed } = dist('modules', 'mls', 'index.js');

const db = createDb(url, { max: 4 });
const logger = createLogger('warn');
const provider = createDemoMlsProvider({ db, seed: false });
let boss;
let out;
try {
  if (mode === 'read') {
    const t0 = performance.now();
    let after = null;
    let next = null;
    let pages = 0;
    let records = 0;
    let served = 0;
    for (;;) {
      const page = await provider.changesPage({ after, nextLink: next, top });
      if (page.via === 'keyset') served = 0;
      served += page.records.length;
      pages++;
      records += page.records.length;
      const last = page.records[page.records.length - 1];
      if (last) after = { timestamp: last.ModificationTimestamp, key: last.ListingKey };
      next = page.nextLink;
      if (!next && (page.records.length === 0 || served < top)) break;
    }
    out = { ms: performance.now() - t0, pages, records, applied: 0, events: 0 };
  } else {
    const { PgBoss } = await import('pg-boss');
    boss = new PgBoss({ connectionString: url, supervise: false, schedule: false, migrate: false });
    boss.on('error', () => undefined);
    await boss.start();
    const queue = { publish: async (event, payload, o = {}) => boss.publish(event.name, event.payload.parse(payload), o.trx ? { db: await bossDbFor(o.trx) } : {}) };
    const t0 = performance.now();
    const res = await pollFeed({ db, queue, config: { MLS_POLL_INTERVAL_S: 60, RESO_REPLICATION_TOP: top }, logger, provider }, { force: true });
    if (!res.polled) throw new Error(`the feed is busy (${res.reason})`);
    out = { ms: performance.now() - t0, pages: res.result.pages, records: res.result.records, applied: res.result.applied, events: res.result.events };
  }
  out.maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  if (boss) await boss.stop({ graceful: false, close: true });
  await db.destroy();
}

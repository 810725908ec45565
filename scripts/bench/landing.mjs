#!/usr/bin/env node
// npm run bench:landing — the landing page `/` of the built product in mobile Lighthouse (lighthouse 12.8.2,
// its default mobile emulation and simulated throttling, Debian's Chromium), median of BENCH_RUNS runs:
// performance score, LCP, CLS, TBT, FCP, and the JavaScript as received (transfer bytes of every script).
// Goals: performance ≥ 98, LCP ≤ 1.2 s, CLS 0, landing JS as received ≤ 135 KiB.
//   BENCH_RUNS=3  [--no-build]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, root, startProduct } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
if (!process.argv.includes('--no-build')) {
  const res = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('build failed');
}
const product = await startProduct({ LOG_LEVEL: 'warn' });
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'la-lighthouse-'));
const lighthouse = path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js');

const runs = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const file = path.join(out, `run-${i}.json`);
    const res = spawnSync(
      process.execPath,
      [lighthouse, `${product.url}/`, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${file}`, '--chrome-flags=--headless=new --no-sandbox'],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
    );
    if (res.status !== 0) throw new Error(`lighthouse exited with ${res.status}`);
    const lhr = JSON.parse(fs.readFileSync(file, 'utf8'));
    const audit = (id) => lhr.audits[id]?.numericValue;
    const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter((r) => r.resourceType === 'Script');
    runs.push({
      score: Math.round(lhr.categories.performance.score * 100),
      lcp: audit('largest-contentful-paint'),
      fcp: audit('first-contentful-paint'),
      cls: audit('cumulative-layout-shift'),
      tbt: audit('total-blocking-time'),
      si: audit('speed-index'),
      jsKiB: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024,
      scripts: scripts.length,
    });
  }
} finally {
  await product.stop();
  if (!process.env.BENCH_KEEP) fs.rmSync(out, { recursive: true, force: true });
}

const m = (k) => median(runs.map((r) => r[k]));
console.log(`\nbench:landing — mobile Lighthouse 12.8.2 on /, ${RUNS} runs, medians; 1-min load ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores\n`);
console.table(runs.map((r, i) => ({ run: i + 1, score: r.score, 'LCP ms': Math.round(r.lcp), 'FCP ms': Math.round(r.fcp), CLS: Number(r.cls.toFixed(3)), 'TBT ms': Math.round(r.tbt), 'JS KiB received': Number(r.jsKiB.toFixed(1)), scripts: r.scripts })));
console.table([{ score: m('score'), 'LCP ms': Math.round(m('lcp')), 'FCP ms': Math.round(m('fcp')), CLS: Number(m('cls').toFixed(3)), 'TBT ms': Math.round(m('tbt')), 'speed index ms': Math.round(m('si')), 'JS KiB received': Number(m('jsKiB').toFixed(1)) }]);
console.log('Goals: score ≥ 98, LCP ≤ 1200 ms, CLS 0, JS ≤ 135 KiB.');

#!/usr/bin/env node
// npm run bench:landing — the landing page `/` of the built product in mobile Lighthouse (lighthouse 12.8.2,
// its default mobile emulation and simulated throttling, Debian's Chromium), median of BENCH_RUNS runs:
// performance score, LCP, CLS, TBT, FCP, and the JavaScript as received (transfer bytes): the scripts asked for
// before the load event, and apart from them any fetched after it (on a phone the app waits for the first touch).
// Goals: performance ≥ 98, LCP ≤ 1.2 s, CLS 0, landing JS as received ≤ 135 KiB.
//   BENCH_RUNS=3  [--no-build]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, root, runLighthouse, startBlankPage, startProduct } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
if (!process.argv.includes('--no-build')) {
  const res = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('build failed');
}
const product = await startProduct({ LOG_LEVEL: 'warn' });
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'la-lighthouse-'));

const blankPage = await startBlankPage();
const runs = [];
const blank = [];
try {
  // Each run beside one on a blank page: this machine's floor (the browser's own start shows as long tasks).
  for (let i = 0; i < RUNS; i++) {
    blank.push(runLighthouse(blankPage.url, path.join(out, `blank-${i}.json`)));
    runs.push(runLighthouse(`${product.url}/`, path.join(out, `run-${i}.json`)));
  }
} finally {
  await product.stop();
  await blankPage.stop();
  if (!process.env.BENCH_KEEP) fs.rmSync(out, { recursive: true, force: true });
  else console.error('[bench:landing] lighthouse reports kept in', out);
}

const m = (k) => median(runs.map((r) => r[k]));
console.log(`\nbench:landing — mobile Lighthouse 12.8.2 on /, ${RUNS} runs, medians; 1-min load ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores\n`);
console.table(runs.map((r, i) => ({ run: i + 1, score: r.score, 'LCP ms': Math.round(r.lcp), 'FCP ms': Math.round(r.fcp), CLS: Number(r.cls.toFixed(3)), 'TBT ms': Math.round(r.tbt), 'JS KiB at load': Number(r.jsKiB.toFixed(1)), scripts: r.scripts, 'JS KiB after load': Number(r.afterKiB.toFixed(1)), 'scripts after load': r.afterScripts })));
console.table([{ score: m('score'), 'LCP ms': Math.round(m('lcp')), 'FCP ms': Math.round(m('fcp')), CLS: Number(m('cls').toFixed(3)), 'TBT ms': Math.round(m('tbt')), 'speed index ms': Math.round(m('si')), 'JS KiB at load': Number(m('jsKiB').toFixed(1)), 'JS KiB after load': Number(m('afterKiB').toFixed(1)), 'JS KiB in all': Number(median(runs.map((r) => r.jsKiB + r.afterKiB)).toFixed(1)) }]);
const mb = (k) => median(blank.map((r) => r[k]));
console.log(`Blank page, same rounds (medians): score ${mb('score')}, TBT ${Math.round(mb('tbt'))} ms (${blank.map((r) => Math.round(r.tbt)).join(', ')}), FCP ${Math.round(mb('fcp'))} ms, LCP ${Math.round(mb('lcp'))} ms.`);
console.log('Goals: score ≥ 98, LCP ≤ 1200 ms, CLS 0, JS ≤ 135 KiB.');

#!/usr/bin/env node
// Builds what is missing or stale: contracts + backend (tsc -b) and the three frontends (vite build).
// A stamp file in each output records the newest source time it was built from; `--force` rebuilds all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompressDir } from './precompress.mjs';
import { prerenderLanding } from './prerender-landing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');
const log = (...a) => !quiet && console.log('[build]', ...a);

function newestMtime(entries) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      const base = path.basename(p);
      if (base === 'node_modules' || base === 'dist' || base === 'e2e' || base.startsWith('.')) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (!p.endsWith('.test.ts')) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const e of entries) walk(path.join(root, e));
  return newest;
}

const shared = ['contracts/src', 'contracts/package.json', 'contracts/tsconfig.json', 'tsconfig.base.json', 'package-lock.json'];
const targets = [
  { name: 'backend', stamp: 'backend/dist/.build-stamp', sources: ['backend/src', 'backend/tsconfig.json', ...shared], cmd: ['npx', ['tsc', '-b', 'backend']] },
  ...['frontend-dashboard', 'frontend-admin', 'frontend-host'].map((app) => ({
    name: app,
    stamp: `${app}/dist/.build-stamp`,
    sources: [`${app}/src`, 'ui/src', 'ui/package.json', 'vite.aliases.ts', 'vite.remote.ts', `${app}/index.html`, `${app}/vite.config.ts`, `${app}/vite.listing.config.ts`, `${app}/vite.prerender.config.ts`, `${app}/public`, `${app}/package.json`, ...shared],
    cmd: ['npm', ['run', 'build', '-w', `@app/${app}`]],
    dist: `${app}/dist`,
  })),
];

let built = 0;
for (const t of targets) {
  const sourceTime = newestMtime(t.sources);
  const stampFile = path.join(root, t.stamp);
  const stampTime = fs.existsSync(stampFile) ? Number(fs.readFileSync(stampFile, 'utf8')) : -1;
  if (!force && stampTime >= sourceTime) continue;
  log(`${t.name}: building${stampTime < 0 ? ' (missing)' : force ? '' : ' (sources changed)'}`);
  const started = Date.now();
  // What is built is what production runs, whoever asks (a test process runs with NODE_ENV=test, and vite would
  // then bundle React's development JSX runtime, which the production server cannot render with).
  const env = t.dist ? { ...process.env, NODE_ENV: 'production' } : process.env;
  const res = spawnSync(t.cmd[0], t.cmd[1], { cwd: root, env, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
  if (res.status !== 0) {
    console.error(`[build] ${t.name} failed`);
    process.exit(res.status ?? 1);
  }
  // The landing is prerendered (scripts/prerender-landing.mjs) and hydrated. Its first-screen buttons submit a
  // real form, so a tap before the JavaScript runs still opens step 1 (/?start=…). LANDING_PRERENDER=0 skips it.
  if (t.name === 'frontend-host' && process.env.LANDING_PRERENDER !== '0') log('frontend-host: landing prerendered', await prerenderLanding(root));
  if (t.dist) log(`${t.name}: precompressed ${precompressDir(path.join(root, t.dist))} files (brotli 11, gzip 9)`);
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, String(sourceTime));
  log(`${t.name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  built++;
}
if (!built) log('everything is up to date');

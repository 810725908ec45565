#!/usr/bin/env node
// npm run bench:dashboard-page — /dashboard in Debian's Chromium on the built product: the JavaScript downloaded
// (bytes on the wire, compressed as the server sends them) and the time from navigation to the first card
// (the Contact Card) on screen; median of 5 fresh browser contexts. Each context makes an agent in the wizard and
// is signed in as it the way the product signs one in (the account setup link from the outbox, opened in that
// context), then opens /dashboard?agent={id}: the same remote and cards as after a login.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';
import { median, startProduct } from './lib.mjs';

/** The token of the link emailed to `to` (the product's .eml outbox), once the job has sent it. */
async function linkToken(dataDir, to) {
  const outbox = path.join(dataDir, 'outbox');
  for (;;) {
    const file = fs.existsSync(outbox) && fs.readdirSync(outbox).find((f) => fs.readFileSync(path.join(outbox, f), 'utf8').includes(`To: ${to}`));
    if (file) return /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))[1];
    await new Promise((r) => setTimeout(r, 50));
  }
}

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const product = await startProduct({ LOG_LEVEL: 'warn' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const headers = { origin: product.url };
    const agent = await (await page.request.post(`${product.url}/api/agents`, { data: { name: 'Ava Stone', state: 'FL', manualEntry: true }, headers })).json();
    const email = `ava.${i}.${Date.now()}@example.com`;
    await page.request.post(`${product.url}/api/agents/${agent.id}/account-setup`, { data: { email }, headers });
    const opened = await page.request.post(`${product.url}/api/auth/verify-email`, { data: { token: await linkToken(product.dataDir, email) }, headers });
    if (!opened.ok()) throw new Error(`sign-in link: ${opened.status()} ${await opened.text()}`);
    const scripts = [];
    page.on('requestfinished', async (req) => {
      if (req.resourceType() === 'script') scripts.push((await req.sizes()).responseBodySize);
    });
    await page.goto(`${product.url}/dashboard?agent=${agent.id}`);
    await page.getByRole('region', { name: 'Contact Card' }).waitFor();
    const firstCard = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle');
    runs.push({ firstCard, jsBytes: scripts.reduce((a, b) => a + b, 0), scripts: scripts.length });
    await context.close();
  }
  console.log(`\nbench:dashboard-page — ${RUNS} runs, medians`);
  console.table({
    'time to the first card, ms': Math.round(median(runs.map((r) => r.firstCard))),
    'JS downloaded, KiB (as sent, compressed)': Number((median(runs.map((r) => r.jsBytes)) / 1024).toFixed(1)),
    'script files': median(runs.map((r) => r.scripts)),
  });
} finally {
  await browser.close();
  await product.stop();
}

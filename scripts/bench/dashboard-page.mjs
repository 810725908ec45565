#!/usr/bin/env node
// npm run bench:dashboard-page — /dashboard in Debian's Chromium on the built product: the JavaScript downloaded
// (bytes on the wire, compressed as the server sends them) and the time from navigation to the first card
// (the Contact Card) on screen; median of 5 fresh browser contexts. The agent is opened as its wizard browser
// does (/dashboard?agent={id}, an agent without a password made in that session): the same remote and cards
// as after a login.
import { chromium } from 'playwright';
import { median, startProduct } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const product = await startProduct({ LOG_LEVEL: 'warn' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const agent = await (await page.request.post(`${product.url}/api/agents`, { data: { name: 'Ava Stone', state: 'FL', manualEntry: true }, headers: { origin: product.url } })).json();
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

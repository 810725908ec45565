#!/usr/bin/env node
// npm run bench:api — the reads that matter, side by side in one run on the built product:
//   bare Koa hello world (the baseline), GET /api/health, GET /api/agents/{id}/listings (12 listings, with a
//   session cookie) and GET /api/campaigns/{id} (with a session cookie).
// 50 connections, rounds alternate between the targets (bare, health, listings, campaign, bare, …), and each
// figure is the median over the rounds: req/s, its ratio to bare Koa in the same run, the serving process's CPU per
// request (from /proc: steadier than req/s on a shared machine), p50 and p99. Every request
// carries the browser's Accept-Encoding (gzip, deflate, br), bare Koa's too; the two reads are also measured
// without it. Goal: with browser headers, both reads ≥ 0.18× bare Koa, p99 ≤ 20 ms.
//   BENCH_ROUNDS=3  BENCH_SECONDS=10  BENCH_CONNECTIONS=50  BENCH_LISTINGS=12
//   BENCH_METRICS=off|on|compare: the product without METRICS_PORT (default), with it, or both side by side in the
//   same run (two products, each seeded alike; their reads alternate with the others), to price the metrics.
import { fork } from 'node:child_process';
import path from 'node:path';
import { asBrowsersAndPlain, BROWSER_HEADERS, browserSession, buildBackend, compareReads, freePort, root, startProduct, waitFor } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 12);
const METRICS = process.env.BENCH_METRICS ?? 'off';
if (!['off', 'on', 'compare'].includes(METRICS)) throw new Error('BENCH_METRICS: off, on or compare');

if (!process.argv.includes('--no-build')) buildBackend();
const barePort = await freePort();
const bare = fork(path.join(root, 'scripts', 'bench', 'bare-koa.mjs'), { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
const bareUrl = `http://127.0.0.1:${barePort}/`;
await waitFor(bareUrl);
const variants = METRICS === 'compare' ? ['off', 'on'] : [METRICS];
const products = [];
const scrapers = [];
for (const variant of variants) {
  const metricsPort = variant === 'on' ? await freePort() : null;
  products.push({ variant, product: await startProduct(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}) });
  // Scraped every 15 s meanwhile, as Prometheus would.
  if (metricsPort) scrapers.push(setInterval(() => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text(), () => undefined), 15_000));
}

/** A wizard browser session on `product`: a manual agent it owns, LISTINGS listings and one campaign draft, made through the API. */
async function seed(product) {
  const session = browserSession(product.url);
  const call = session.json;
  const agent = await call('POST', '/api/agents', { name: 'Ava Stone', state: 'FL', manualEntry: true });
  const listings = [];
  for (let i = 0; i < LISTINGS; i++) {
    listings.push(
      await call('POST', '/api/listings', {
        agentId: agent.id,
        address: `${100 + i} Palm Ave`,
        city: 'Tampa',
        state: 'FL',
        price: String(350000 + i * 10000),
        bedrooms: 3,
        bathrooms: '2.0',
        squareFeet: 1850,
        status: i % 3 ? 'active' : 'sold',
        imageUrl: null,
        images: [`https://photos.example.com/${i}-1.jpg`, `https://photos.example.com/${i}-2.jpg`],
      }),
    );
  }
  const campaign = await call('POST', '/api/campaigns', {
    agentId: agent.id,
    listingId: listings[1].id,
    templateType: 'just-listed',
    adFormat: 'single',
    headline: 'Amazing Property in Tampa',
    description: 'Sunny 3-bed home with a pool. Schedule a tour today.',
    subtitle: 'Looking to buy, rent or sell?',
    callToAction: 'Learn more',
    targetAudience: 'Local Home Buyers (25-55)',
    price: '399',
    imageUrl: 'https://photos.example.com/1-1.jpg',
    carouselImages: [],
  });
  const firstPage = await call('GET', `/api/agents/${agent.id}/listings`);
  const got = Array.isArray(firstPage) ? firstPage.length : firstPage.listings.length;
  if (got !== LISTINGS) throw new Error(`expected ${LISTINGS} listings, got ${got}`);
  return { agent, campaign, cookie: session.cookie };
}

const reads = [];
for (const { variant, product } of products) {
  const { agent, campaign, cookie } = await seed(product);
  const label = METRICS === 'compare' ? `, metrics ${variant}` : '';
  // Each read as browsers send it (compressed answers) and without Accept-Encoding; with the metrics compared,
  // only as browsers send it.
  const asSent = (read) => (METRICS === 'compare' ? [{ ...read, headers: { ...BROWSER_HEADERS, ...read.headers } }] : asBrowsersAndPlain(read));
  reads.push([
    { name: `GET /api/health${label}`, url: `${product.url}/api/health`, headers: BROWSER_HEADERS, pid: product.pid },
    ...asSent({ name: `GET /api/agents/{id}/listings (${LISTINGS}, session)${label}`, url: `${product.url}/api/agents/${agent.id}/listings`, headers: { cookie }, pid: product.pid }),
    ...asSent({ name: `GET /api/campaigns/{id} (session)${label}`, url: `${product.url}/api/campaigns/${campaign.id}`, headers: { cookie }, pid: product.pid }),
  ]);
}
// Each read of one product right beside the same read of the other.
const targets = [{ name: 'bare Koa hello world, browser headers', url: bareUrl, headers: BROWSER_HEADERS, pid: bare.pid }, ...reads[0].flatMap((read, i) => reads.map((r) => r[i]))];
const rows = await compareReads('bench:api', targets, { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS });
if (METRICS === 'compare') {
  // Metrics on against off, read for read: the goal is ≥ 0.95.
  console.table(
    rows
      .filter((r) => r.target.endsWith('metrics on'))
      .map((on) => {
        const off = rows.find((r) => r.target === on.target.replace('metrics on', 'metrics off'));
        return { read: on.target.replace(', metrics on', ''), 'on/off req/s': Number((on.rps / off.rps).toFixed(3)), 'p99 off ms': off.p99, 'p99 on ms': on.p99 };
      }),
  );
}

console.log('Goal: with browser headers, the listings and the campaign ≥ 0.18× bare Koa, p99 ≤ 20 ms.');

for (const scraper of scrapers) clearInterval(scraper);
for (const { product } of products) await product.stop();
bare.kill('SIGTERM');

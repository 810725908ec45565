#!/usr/bin/env node
// npm run bench:floor — how far below bare Koa the decided stack itself sits, beside the product, in one run:
//   1. bare Koa hello world (the baseline of bench:api and bench:dashboard);
//   2. the stack's floor (scripts/bench/stack-floor.mjs): koa-compress, koa-session on a signed cookie with an
//      in-memory store, and @koa/router holding every route of the product's modules, answering the same bytes
//      as the product's campaign read; no database, access log, security headers, CSRF check or validation;
//   3. the product's GET /api/campaigns/{id} with a session (answered from its read caches once warm);
//   4. the floor and the product again for the public listing page /listing/{mlsId} (no cookie), the floor
//      answering the product's rendered bytes.
// 50 connections, rounds alternate between the targets, figures are medians over the rounds. Each read is measured
// with the browser's Accept-Encoding (gzip, deflate, br: the floor then compresses every answer over 1 KB) and
// without it; bare Koa gets the browser's header.
//   BENCH_ROUNDS=3  BENCH_SECONDS=8  BENCH_CONNECTIONS=50
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { asBrowsersAndPlain, BROWSER_HEADERS, browserSession, buildBackend, compareReads, freePort, root, startProduct, waitFor } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

if (!process.argv.includes('--no-build')) buildBackend();
const product = await startProduct();
const children = [];
try {
  // A wizard session with a manual agent, one listing and one campaign draft, made through the API.
  const session = browserSession(product.url);
  const agent = await session.json('POST', '/api/agents', { name: 'Ava Stone', state: 'FL', manualEntry: true });
  const listing = await session.json('POST', '/api/listings', {
    agentId: agent.id, address: '100 Palm Ave', city: 'Tampa', state: 'FL', price: '350000', bedrooms: 3, bathrooms: '2.0',
    squareFeet: 1850, status: 'active', imageUrl: null, images: ['https://photos.example.com/1.jpg'],
  });
  const campaign = await session.json('POST', '/api/campaigns', {
    agentId: agent.id, listingId: listing.id, templateType: 'just-listed', adFormat: 'single', headline: 'Amazing Property in Tampa',
    description: 'Sunny 3-bed home with a pool. Schedule a tour today.', subtitle: 'Looking to buy, rent or sell?', callToAction: 'Learn more',
    targetAudience: 'Local Home Buyers (25-55)', price: '399', imageUrl: 'https://photos.example.com/1.jpg', carouselImages: [],
  });
  const campaignPath = `/api/campaigns/${campaign.id}`;
  const body = await session.text('GET', campaignPath);
  // A demo MLS agent's listings, loaded as the wizard does, for the public page.
  const found = await session.json('POST', '/api/mls/search-agent', { name: 'Sarah Johnson', state: 'FL' });
  const mlsAgent = await session.json('POST', '/api/agents', found);
  await session.text('POST', '/api/mls/load', { agentId: mlsAgent.id, mlsId: found.mlsId });
  const pagePath = '/listing/FL2600100';
  const page = await session.text('GET', pagePath);

  const start = async (file, env) => {
    const port = await freePort();
    const child = fork(path.join(root, 'scripts', 'bench', file), { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    });
    return `http://127.0.0.1:${port}`;
  };
  const bareUrl = await start('bare-koa.mjs', {});
  await waitFor(`${bareUrl}/`);
  const secret = crypto.randomBytes(32).toString('hex');
  const sid = crypto.randomUUID();
  // keygrip's signature of the cookie (HMAC-SHA1, URL-safe base64 without padding), as the product signs it.
  const sig = crypto.createHmac('sha1', secret).update(`la.sid=${sid}`).digest('base64url');
  const floorUrl = await start('stack-floor.mjs', { BODY: body, PAGE: page, SESSION_SECRET: secret, SID: sid });

  const targets = [
    { name: 'bare Koa hello world, browser headers', url: `${bareUrl}/`, headers: BROWSER_HEADERS },
    ...asBrowsersAndPlain({ name: 'stack floor: compress + session + router, same answer', url: `${floorUrl}${campaignPath}`, headers: { cookie: `la.sid=${sid}; la.sid.sig=${sig}` } }),
    ...asBrowsersAndPlain({ name: 'product: GET /api/campaigns/{id} (session)', url: `${product.url}${campaignPath}`, headers: { cookie: session.cookie } }),
    ...asBrowsersAndPlain({ name: 'stack floor: the listing page\'s bytes', url: `${floorUrl}${pagePath}` }),
    ...asBrowsersAndPlain({ name: `product: GET ${pagePath} (SSR)`, url: `${product.url}${pagePath}` }),
  ];
  await compareReads('bench:floor', targets, {
    rounds: ROUNDS,
    duration: DURATION,
    connections: CONNECTIONS,
    extra: (row) => ({ 'µs per request (1 core)': Number((1e6 / row.rps).toFixed(1)) }),
  });
} finally {
  for (const child of children) child.kill('SIGTERM');
  await product.stop();
}

#!/usr/bin/env node
// npm run bench:dashboard — the dashboard's reads at 50 connections beside a bare Koa hello world in the same
// run: GET /api/agents/{id}/facebook-metrics and GET /api/agents/{id}/leads (with the session cookie), for an
// agent with 1,000 leads and 10 campaigns with 30 days of daily delivery. Rounds alternate between the targets;
// figures are medians of the rounds: req/s, ratio to bare Koa, p50, p99. Every request carries the browser's
// Accept-Encoding (gzip, deflate, br), bare Koa's too; the reads are also measured without it.
// Goal: ratio ≥ 0.3, p99 ≤ 50 ms.
//   BENCH_ROUNDS=3  BENCH_SECONDS=10  BENCH_CONNECTIONS=50
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { asBrowsersAndPlain, BROWSER_HEADERS, browserSession, buildBackend, compareReads, freePort, root, startProduct, tempDir, waitFor } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

buildBackend();
const barePort = await freePort();
const bare = fork(path.join(root, 'scripts', 'bench', 'bare-koa.mjs'), { env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
await waitFor(`http://127.0.0.1:${barePort}/`);
const dataDir = tempDir('la-bench-dash-');
const pgPort = await freePort();
const product = await startProduct({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'warn', JOBS_ENABLED: 'false' });
try {
  const session = browserSession(product.url);
  const call = session.json;
  const agent = await call('POST', '/api/agents', { name: 'Ava Stone', state: 'FL', manualEntry: true });
  const listing = await call('POST', '/api/listings', {
    agentId: agent.id, address: '100 Palm Ave', city: 'Tampa', state: 'FL', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1850, status: 'active',
    imageUrl: null, images: ['https://photos.example.com/1.jpg'],
  });

  // 10 active campaigns with 30 days of delivery, and 1,000 leads, straight into the tables.
  const { password } = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  const client = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/listing_ads` });
  await client.connect();
  const { rows: campaigns } = await client.query(
    `insert into campaigns (agent_id, listing_id, template_type, headline, budget_cents, impressions_requested, impressions_delivered, reach, clicks, status, starts_at, ends_at, metrics_updated_at)
     select $1, $2, 'just-listed', 'Sunny home', 39900, 25000, 3000 * g, 2000 * g, 30 * g, 'active', now() - interval '30 days', now() + interval '10 days', now()
       from generate_series(1, 10) g returning id`,
    [agent.id, listing.id],
  );
  for (const c of campaigns) {
    await client.query(
      `insert into campaign_daily_metrics (campaign_id, day, impressions, reach, clicks)
       select $1, (now() at time zone 'UTC')::date - d, 100 * (30 - d), 70 * (30 - d), 1 * (30 - d) from generate_series(0, 29) d`,
      [c.id],
    );
  }
  await client.query(
    `insert into leads (listing_id, agent_id, name, email, phone, message, source, interested_in_tour, interested_in_similar, idempotency_key, created_at)
     select $1, $2, 'Buyer ' || g, 'buyer' || g || '@example.com', '8135550100', 'Is it still available?', 'property_page', g % 2 = 0, g % 3 = 0,
            gen_random_uuid()::text, now() - (g || ' minutes')::interval
       from generate_series(1, 1000) g`,
    [listing.id, agent.id],
  );
  await client.query('vacuum analyze campaigns, campaign_daily_metrics, leads');
  // The dashboard is the signed-in agent's (DESIGN §3): this browser signs in as its wizard agent, as opening the
  // emailed link would leave it (the agent verified, the session signed in), written to the tables like the seed.
  await client.query(`update agents set email = 'ava.stone@example.com', verified_at = now() where id = $1`, [agent.id]);
  await client.query(`update sessions set data = data || jsonb_build_object('agentId', $1::int) where data->'wizardAgentIds' @> to_jsonb($1::int)`, [agent.id]);
  await client.end();
  // The product reads a session from memory for a few seconds: on once it answers this browser as the agent.
  for (;;) {
    const me = await fetch(`${product.url}/api/auth/me`, { headers: { cookie: session.cookie } });
    if (me.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const leads = await call('GET', `/api/agents/${agent.id}/leads`);
  const daily = await call('GET', `/api/agents/${agent.id}/facebook-metrics/daily`);
  if (leads.total !== 1000 || leads.leads.length !== 25 || daily.length !== 300) throw new Error(`seed: ${leads.total} leads, ${daily.length} daily points`);

  const targets = [
    { name: 'bare Koa hello world, browser headers', url: `http://127.0.0.1:${barePort}/`, headers: BROWSER_HEADERS },
    ...asBrowsersAndPlain({ name: 'GET /api/agents/{id}/facebook-metrics (session)', url: `${product.url}/api/agents/${agent.id}/facebook-metrics`, headers: { cookie: session.cookie } }),
    ...asBrowsersAndPlain({ name: 'GET /api/agents/{id}/leads (first page of 1,000, session)', url: `${product.url}/api/agents/${agent.id}/leads`, headers: { cookie: session.cookie } }),
    // The chart's series (10 campaigns × 30 days), read beside the tiles: reported, not part of the goal.
    ...asBrowsersAndPlain({ name: 'GET /api/agents/{id}/facebook-metrics/daily (300 points, session)', url: `${product.url}/api/agents/${agent.id}/facebook-metrics/daily`, headers: { cookie: session.cookie } }),
  ];
  await compareReads('bench:dashboard', targets, { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS });
  console.log('Goal: ratio ≥ 0.3 and p99 ≤ 50 ms for both reads.');
} finally {
  bare.kill();
  await product.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

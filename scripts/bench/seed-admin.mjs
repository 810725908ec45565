#!/usr/bin/env node
// Seeds the admin benchmark's data: AGENTS agents (default 100,000) with 3 campaigns each and one payment per
// campaign (300,000 each), spread over the last year, in plain SQL (generate_series) inside the database.
// `node scripts/bench/seed-admin.mjs` uses DATABASE_URL; `npm run bench:admin` calls seedAdmin() itself.
import pg from 'pg';

const STATUSES = ['active', 'completed', 'active', 'launch_failed', 'paid', 'draft'];
const PAYMENT_STATUSES = ['succeeded', 'succeeded', 'succeeded', 'failed'];

export async function seedAdmin(connectionString, { agents = 100_000 } = {}) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into agents (name, email, state, created_at)
       select 'Agent ' || g || ' ' || (array['Smith','Garcia','Chen','Okafor','Novak','Silva'])[1 + g % 6],
              'agent' || g || '@bench.test', 'FL', now() - make_interval(days => g % 365, secs => g % 86400)
         from generate_series(1, $1) g`,
      [agents],
    );
    await client.query(
      `insert into listings (agent_id, mls_id, address, city, state, price_cents, status)
       select id, 'BENCH-' || id, id || ' Palm Ave', 'Tampa', 'FL', 45000000, 'active' from agents where email like '%@bench.test'`,
    );
    await client.query(
      `insert into campaigns (agent_id, listing_id, template_type, headline, budget_cents, impressions_requested, impressions_delivered, clicks, status, created_at)
       select l.agent_id, l.id, 'just-listed', 'Just listed: ' || l.address, 39900, 20000, (l.agent_id * 7 + k * 3001) % 24000, (l.agent_id + k) % 300,
              ($1::text[])[1 + (l.agent_id + k) % 6], now() - make_interval(days => (l.agent_id + k) % 365)
         from listings l cross join generate_series(1, 3) k where l.mls_id like 'BENCH-%'`,
      [STATUSES],
    );
    await client.query(
      `insert into payments (campaign_id, provider, idempotency_key, amount_cents, status)
       select c.id, 'local', 'bench-' || c.id, 39900, ($1::text[])[1 + c.id % 4]
         from campaigns c join listings l on l.id = c.listing_id where l.mls_id like 'BENCH-%'`,
      [PAYMENT_STATUSES],
    );
    await client.query('commit');
    // As autovacuum would soon after a bulk load: fresh statistics and visibility map (index-only scans).
    await client.query('vacuum analyze agents, campaigns, payments');
    await client.query('analyze agents; analyze campaigns; analyze payments; analyze listings');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.env.DATABASE_URL) {
    console.error('Set DATABASE_URL');
    process.exit(2);
  }
  await seedAdmin(process.env.DATABASE_URL, { agents: Number(process.env.AGENTS ?? 100_000) });
  console.log('seeded');
}

#!/usr/bin/env node
// npm run bench:identity-merge — the duplicates migration (20261127010100_agents_merge_duplicate_members) on
// 100,000 agents, 20% of them duplicates of another row of the same MLS member, each agent with its listings (the
// duplicates load the same MLS listings), a campaign (half of them paid), leads, lead notifications and a wizard
// session: the state the product had before one agent per member. Embedded PostgreSQL in a temp folder.
//
// Baseline, in the same run: the same migration over 100,000 agents with no duplicates (the same number of rows
// of every kind). Each database is seeded once as a template and copied for every run; medians of BENCH_RUNS.
//   BENCH_AGENTS (100000), BENCH_DUPLICATE_PERCENT (20), BENCH_RUNS (3), --no-build
import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { root, buildBackend, freePort, tempDir, median } from './lib.mjs';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 100_000);
const DUPLICATE_PERCENT = Number(process.env.BENCH_DUPLICATE_PERCENT ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MERGE = '20261127010100_agents_merge_duplicate_members';

if (!process.argv.includes('--no-build')) buildBackend();
const require = createRequire(import.meta.url);
const dist = (...p) => require(path.join(root, 'backend', 'dist', ...p));
const { createLogger } = dist('platform', 'logger.js');
const { startEmbeddedPostgres } = dist('platform', 'db', 'embedded.js');
const { createDb } = dist('platform', 'db', 'knex.js');
const { migrations } = dist('migrations', 'index.js');

const NAMES = Object.keys(migrations).sort();
const BEFORE_MERGE = NAMES.slice(0, NAMES.indexOf(MERGE));

async function sql(url, text, values) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * Seeds `url` (migrated up to just before the merge): AGENTS agent rows over AGENTS − duplicates MLS members; the
 * first `duplicates` members have a second row (one in ten of those second rows verified, with a password: the
 * merge keeps it). Every row loaded its member's two MLS listings, made one campaign on the first (half paid),
 * received two leads with their snapshots and email messages, and is in one wizard session.
 */
async function seed(url, duplicates) {
  const members = AGENTS - duplicates;
  const statements = [
    ['begin'],
    [
      `insert into agents (name, email, state, source, mls_system, mls_id, mls_email, mls_name, created_at, password_hash, verified_at)
       select 'Member ' || m, 'member' || m || '@mls.test', 'FL', 'mls', 'demo', 'M' || m, 'member' || m || '@mls.test', 'Member ' || m,
              now() - make_interval(days => 400 - copy * 10, secs => m % 86400),
              case when copy = 2 and m % 10 = 0 then '$argon2id$bench' end, case when copy = 2 and m % 10 = 0 then now() end
         from generate_series(1, $1::int) m cross join generate_series(1, 2) copy
        where copy = 1 or m <= $2::int`,
      [members, duplicates],
    ],
    [
      `insert into listings (agent_id, mls_id, address, city, state, price_cents, status, updated_at)
       select a.id, a.mls_id || '-L' || k, k || ' ' || a.mls_id || ' Palm Ave', 'Tampa', 'FL', 45000000, 'active', a.created_at
         from agents a cross join generate_series(1, 2) k`,
    ],
    [
      `insert into campaigns (agent_id, listing_id, template_type, headline, budget_cents, impressions_requested, status)
       select l.agent_id, l.id, 'just-listed', 'Just listed', 29900, 15000, case when l.agent_id % 2 = 0 then 'active' else 'draft' end
         from listings l where l.mls_id like '%-L1'`,
    ],
    [
      `insert into payments (campaign_id, provider, idempotency_key, amount_cents, status)
       select id, 'local', 'bench-' || id, 29900, 'succeeded' from campaigns where status = 'active'`,
    ],
    [
      `insert into leads (listing_id, agent_id, name, email, idempotency_key)
       select l.id, l.agent_id, 'Buyer ' || l.id, 'buyer' || l.id || '@example.com', 'bench-' || l.id from listings l`,
    ],
    [
      `insert into notification_leads (lead_id, agent_id, snapshot)
       select id, agent_id, '{}'::jsonb from leads`,
    ],
    [
      `insert into notification_messages (agent_id, lead_id, kind, channel, webhook_id, payload, status, last_attempt_allowed)
       select agent_id, id, 'lead.created', 'email', 'msg_bench_' || id, '{}'::json, 'delivered', 10 from leads`,
    ],
    [
      `insert into notification_settings (agent_id, webhook_url)
       select id, 'https://hooks.example.com/' || id from agents where id % 5 = 0`,
    ],
    [
      `insert into sessions (sid, data, expires_at)
       select 'bench-' || id, jsonb_build_object('wizardAgentIds', jsonb_build_array(id)), now() + interval '1 day' from agents`,
    ],
    ['commit'],
    ['vacuum analyze'],
  ];
  for (const [text, values] of statements) await sql(url, text, values);
}

const count = async (url, text) => Number((await sql(url, text)).rows[0].n);

async function counts(url) {
  return {
    agents: await count(url, 'select count(*) n from agents'),
    listings: await count(url, 'select count(*) n from listings'),
    campaigns: await count(url, 'select count(*) n from campaigns'),
    leads: await count(url, 'select count(*) n from leads'),
    merges: await count(url, 'select count(*) n from agent_merges'),
    spentCents: await count(url, 'select coalesce(sum(spent_cents), 0) n from agents'),
  };
}

const pgDir = tempDir('la-bench-identity-');
const logger = createLogger('warn', 'bench');
const db = await startEmbeddedPostgres({ dataDir: pgDir, port: await freePort(), logger, ephemeral: true });
const admin = db.connectionString('postgres');
try {
  // Two templates, migrated to just before the merge and seeded: with duplicates, and the baseline without.
  const templates = { duplicates: Math.round((AGENTS * DUPLICATE_PERCENT) / 100), baseline: 0 };
  for (const [name, duplicates] of Object.entries(templates)) {
    await sql(admin, `create database tpl_${name}`);
    const knex = createDb(db.connectionString(`tpl_${name}`), { max: 2 });
    for (const migration of BEFORE_MERGE) await knex.migrate.up({ name: migration });
    await knex.destroy();
    const t0 = performance.now();
    await seed(db.connectionString(`tpl_${name}`), duplicates);
    console.log(`seeded ${name}: ${AGENTS.toLocaleString('en-US')} agents, ${duplicates.toLocaleString('en-US')} of them duplicates, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  const times = { duplicates: [], baseline: [] };
  const results = {};
  for (let run = 0; run < RUNS; run++) {
    for (const name of Object.keys(templates)) {
      const database = `run_${name}_${run}`;
      await sql(admin, `create database ${database} template tpl_${name}`);
      const url = db.connectionString(database);
      const before = await counts(url).catch(() => null);
      const knex = createDb(url, { max: 2 });
      const t0 = performance.now();
      await knex.migrate.up({ name: MERGE });
      times[name].push(performance.now() - t0);
      await knex.destroy();
      const after = await counts(url);
      const duplicateMembers = await count(url, `select count(*) n from (select 1 from agents where source = 'mls' group by mls_system, mls_id having count(*) > 1) d`);
      const duplicateListings = await count(url, `select count(*) n from (select 1 from listings group by mls_id having count(*) > 1) d`);
      const survivorsVerified = await count(url, `select count(*) n from agent_merges m join agents a on a.id = m.survivor_id where a.verified_at is not null`);
      results[name] = { before, after, duplicateMembers, duplicateListings, survivorsVerified };
      await sql(admin, `drop database ${database}`);
    }
  }

  const s = (ms) => (ms / 1000).toFixed(2);
  console.table(
    Object.entries(times).map(([name, t]) => ({
      database: name === 'duplicates' ? `${DUPLICATE_PERCENT}% duplicates` : 'no duplicates (baseline)',
      'median s': s(median(t)),
      runs: t.map(s).join(', '),
    })),
  );
  console.log(`ratio (with duplicates / baseline, medians): ${(median(times.duplicates) / median(times.baseline)).toFixed(2)}`);
  for (const [name, r] of Object.entries(results)) {
    console.log(`\n${name}: before → after the migration`);
    console.table(Object.keys(r.after).map((k) => ({ rows: k, before: r.before?.[k] ?? '—', after: r.after[k] })));
    console.log(`members with more than one agent after: ${r.duplicateMembers}; MLS listings with more than one row: ${r.duplicateListings}; merges whose survivor is verified: ${r.survivorsVerified}`);
  }
} finally {
  await db.stop();
  fs.rmSync(pgDir, { recursive: true, force: true });
}

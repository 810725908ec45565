import type { Knex } from 'knex';

/**
 * Abuse that degrades instead of refusing (DESIGN §6 Leads):
 * - leads.status: `received` (handed to delivery), `held` for the agent's review (sent while its listing was
 *   guarded and looking like junk; `hold_reasons` says why, and is kept once reviewed), or `discarded` by the
 *   agent. `reviewed_at`: when it was released or discarded.
 * - leads.content_hash: SHA-256 of the sender's email, name and a hash of the message; unique per listing, so an
 *   exact repeat is one lead, answered like a stored one and never delivered twice. Null on older leads.
 * - lead_guards: per listing, a score of recent leads that halves every few minutes; past a threshold the listing
 *   is guarded (proof of work, suspicious leads held). Unlogged like rate_limits: a lead counts in autocommit
 *   without waiting for a WAL flush, and a crash only forgets a few minutes of scores. No foreign key: a row of
 *   a listing that is gone is harmless, and each lead's upsert checks nothing else.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('leads', (t) => {
    t.string('status', 16).notNullable().defaultTo('received');
    t.specificType('hold_reasons', 'text[]');
    t.specificType('content_hash', 'bytea');
    t.timestamp('reviewed_at', { useTz: true });
  });
  await knex.raw(`
    alter table leads
      add constraint leads_status_check check (status in ('received', 'held', 'discarded')),
      add constraint leads_hold_reasons_check check (status <> 'held' or hold_reasons is not null)
  `);
  await knex.raw(`create unique index leads_listing_content_unique on leads (listing_id, content_hash) where content_hash is not null`);
  // The dashboard's "Held for review" list and count.
  await knex.raw(`create index leads_agent_held_idx on leads (agent_id, created_at, id) where status = 'held'`);
  await knex.raw(`
    create unlogged table lead_guards (
      listing_id integer primary key,
      score double precision not null,
      scored_at timestamptz not null
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lead_guards');
  await knex.raw('drop index if exists leads_agent_held_idx');
  await knex.raw('drop index if exists leads_listing_content_unique');
  await knex.raw('alter table leads drop constraint if exists leads_hold_reasons_check, drop constraint if exists leads_status_check');
  await knex.schema.alterTable('leads', (t) => {
    t.dropColumns('status', 'hold_reasons', 'content_hash', 'reviewed_at');
  });
}

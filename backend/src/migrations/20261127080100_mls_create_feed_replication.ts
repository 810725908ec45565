import type { Knex } from 'knex';

const EVENT_TYPES = ['new', 'price_drop', 'pending', 'sold', 'withdrawn', 'back_on_market'];
const PHASES = ['active', 'pending', 'sold', 'off_market', 'other'];
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(', ');

/**
 * MLS replication (DESIGN §7): per feed, the keyset watermark (ModificationTimestamp as the server wrote it,
 * ListingKey) of the last page applied; our copy of each listing's state (to tell what changed); and one
 * event per change, unique per listing, type and time, so replaying a page changes nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mls_feeds', (t) => {
    t.string('name', 50).primary();
    // The watermark: the last applied record's ModificationTimestamp, exactly as the server sent it, and its ListingKey.
    t.string('watermark_timestamp', 64);
    t.text('watermark_key');
    // Until the first full pass has caught up, records are copied without events (they are not news).
    t.timestamp('baselined_at', { useTz: true });
    t.timestamp('next_poll_at', { useTz: true });
    // The poll running now (one at a time across processes), and until when its claim holds.
    t.string('lease_owner', 100);
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('last_polled_at', { useTz: true });
    t.text('last_error');
    t.bigInteger('records_applied').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.raw(`
    create table mls_feed_listings (
      feed text not null references mls_feeds(name) on delete cascade,
      listing_key text collate "C" not null,
      list_agent_mls_id text,
      phase text not null check (phase in (${list(PHASES)})),
      standard_status text,
      list_price_cents bigint,
      modification_timestamp timestamptz not null,
      deleted boolean not null default false,
      record jsonb,
      seen_at timestamptz not null default now(),
      primary key (feed, listing_key)
    )`);
  await knex.raw('create index mls_feed_listings_agent on mls_feed_listings (list_agent_mls_id)');

  await knex.raw(`
    create table mls_listing_events (
      id bigserial primary key,
      feed text not null references mls_feeds(name) on delete cascade,
      listing_key text collate "C" not null,
      list_agent_mls_id text,
      type text not null check (type in (${list(EVENT_TYPES)})),
      occurred_at timestamptz not null,
      detected_at timestamptz not null default now(),
      previous_phase text check (previous_phase in (${list(PHASES)})),
      phase text not null check (phase in (${list(PHASES)})),
      previous_price_cents bigint,
      price_cents bigint,
      reason text,
      constraint mls_listing_events_unique unique (feed, listing_key, type, occurred_at)
    )`);
  await knex.raw('create index mls_listing_events_agent on mls_listing_events (list_agent_mls_id, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mls_listing_events');
  await knex.schema.dropTable('mls_feed_listings');
  await knex.schema.dropTable('mls_feeds');
}

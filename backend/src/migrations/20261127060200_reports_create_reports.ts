import type { Knex } from 'knex';

/**
 * The reports module (issue 26): settlement of the delivery guarantee and the reports.
 *  - campaign_settlements: one row per settled campaign (its primary key makes settlement happen once),
 *    with the figures the credit was computed from;
 *  - report_mid_flight: the mid-flight report, once per campaign;
 *  - report_links: the seller links, /report/{token}. The token (128 bits) is an HMAC of the link's random salt
 *    under a key derived from SESSION_SECRET, so the dashboard can show it again; the table holds the salt and
 *    the token's SHA-256 (a copy of the table alone yields no token). At most one live link per campaign;
 *    revoked ones stay revoked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaign_settlements', (t) => {
    t.integer('campaign_id').primary().references('campaigns.id').onDelete('RESTRICT');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('RESTRICT');
    t.integer('promised').notNullable();
    t.integer('delivered').notNullable();
    t.integer('price_cents').notNullable();
    t.integer('credit_cents').notNullable();
    t.string('end_reason', 200);
    t.timestamp('settled_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['agent_id', 'settled_at']);
  });
  await knex.raw(`alter table campaign_settlements add constraint campaign_settlements_values_check
                  check (promised > 0 and delivered >= 0 and price_cents > 0 and credit_cents between 0 and price_cents)`);

  await knex.schema.createTable('report_mid_flight', (t) => {
    t.integer('campaign_id').primary().references('campaigns.id').onDelete('CASCADE');
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('report_links', (t) => {
    t.increments('id');
    t.integer('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.binary('salt').notNullable();
    t.binary('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
  });
  await knex.raw(`create unique index report_links_live_unique on report_links (campaign_id) where revoked_at is null`);
  await knex.raw(`alter table report_links add constraint report_links_hash_check check (octet_length(token_hash) = 32)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_links');
  await knex.schema.dropTable('report_mid_flight');
  await knex.schema.dropTable('campaign_settlements');
}

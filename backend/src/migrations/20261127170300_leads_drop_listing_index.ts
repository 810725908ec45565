import type { Knex } from 'knex';

/**
 * leads (listing_id) goes: both unique keys a lead is stored under begin with listing_id
 * (leads_listing_idempotency_key_unique covers every row; leads_listing_content_unique those with a content hash),
 * so a read by listing (and the listings foreign key's cascade) uses the first, and each stored lead updates one
 * index fewer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists leads_listing_id_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists leads_listing_id_index on leads (listing_id)');
}

import type { Knex } from 'knex';

/**
 * A payment no longer moves a listing's public page (DESIGN §3): `/listing/{mlsId}` is the listing agent's, and
 * with one identity per MLS member there is one listing row per MLS listing (20261127010100's unique index).
 * The "paid for most recently" rule and its column go.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists listings_mls_id_promoted_idx');
  await knex.schema.alterTable('listings', (t) => {
    t.dropColumn('promoted_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('listings', (t) => {
    t.timestamp('promoted_at', { useTz: true });
  });
  await knex.raw('create index listings_mls_id_promoted_idx on listings (mls_id, promoted_at desc nulls last, id)');
}

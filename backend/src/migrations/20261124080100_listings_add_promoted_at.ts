import type { Knex } from 'knex';

/**
 * When a campaign for this listing was last paid for. Several agents may load the same MLS listing;
 * its public page shows the one promoted most recently (listings CONTEXT.md, "one listing, one agent").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('listings', (t) => {
    t.timestamp('promoted_at', { useTz: true });
  });
  // The public page's lookup: every row of one mls_id, the promoted one first.
  await knex.raw('create index listings_mls_id_promoted_idx on listings (mls_id, promoted_at desc nulls last, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists listings_mls_id_promoted_idx');
  await knex.schema.alterTable('listings', (t) => {
    t.dropColumn('promoted_at');
  });
}

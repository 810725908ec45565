import type { Knex } from 'knex';

/**
 * Listing-page views per listing page and UTC day (issue 26: the reports count them per campaign by the
 * campaign's listing and days). No cookie, no visitor: each process counts in memory and adds its counts
 * here in one statement every few seconds. Unlogged: a crash may lose the last seconds of counts, which the
 * reports can bear; the writes cost no WAL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unlogged table listing_page_views (
      mls_id varchar(64) not null,
      day date not null,
      views integer not null check (views >= 0),
      primary key (mls_id, day)
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('listing_page_views');
}

import type { Knex } from 'knex';

/**
 * The rate-limit counts (platform/http/rate-limit.ts) as an unlogged table. The counts are short-lived
 * (the longest window is an hour); after a crash PostgreSQL empties an unlogged table, which only
 * forgets recent counts. In return, a transaction that writes only unlogged tables does not wait for a
 * WAL flush at commit: every limited request (a lead, a login, a search) counts in autocommit, so each
 * count no longer costs a flush. (Unlogged tables are not replicated to standbys either; counts are
 * never read there.)
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limits set unlogged');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table rate_limits set logged');
}

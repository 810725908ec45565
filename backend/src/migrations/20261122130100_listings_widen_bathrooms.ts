import type { Knex } from 'knex';

/**
 * Bathrooms arrive as strings with up to 2 decimals ("2.25", contracts' listing schema) but the
 * column kept 1 decimal, so "2.25" came back as "2.3". Widen to decimal(5,2); values stay as they are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table listings alter column bathrooms type numeric(5, 2)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table listings alter column bathrooms type numeric(4, 1)');
}

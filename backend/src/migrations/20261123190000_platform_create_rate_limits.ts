import type { Knex } from 'knex';

/**
 * The counts behind every rate limit, shared by all app processes and workers (rate-limiter-flexible's
 * PostgreSQL store; this is the table shape it expects). `expire` is epoch milliseconds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table rate_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )
  `);
  await knex.raw(`create index rate_limits_expire_idx on rate_limits (expire)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limits');
}

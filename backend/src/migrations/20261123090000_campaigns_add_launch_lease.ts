import type { Knex } from 'knex';

/**
 * A launch holds a lease on its campaign while it talks to the ad platform: a second launch job for
 * the same campaign (a re-sent or redriven job, a retry of an expired attempt) waits instead of
 * creating a second Meta campaign. A lease, not a lock: it holds no connection, and it lapses by
 * itself when the process holding it dies.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.string('launch_lease_job', 64);
    t.timestamp('launch_lease_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('launch_lease_job');
    t.dropColumn('launch_lease_until');
  });
}

import type { Knex } from 'knex';

/**
 * The browser that created a campaign (DESIGN §3, two levels of access): a wizard browser that is not signed in
 * as the agent may read, edit and pay for the campaigns it created, and no others. SHA-256 of that browser's
 * key (its session's `browserKey`); null for campaigns made before, which only the signed-in agent reaches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.string('created_by_browser', 64);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('created_by_browser');
  });
}

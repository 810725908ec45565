import type { Knex } from 'knex';

/**
 * The email the MLS itself has for an agent found there. Account setup for an MLS agent must use it
 * (DESIGN §3: finding a real agent in the public MLS must not let a stranger claim the account), and
 * it must not move when the agent edits the contact email on the branding step.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('agents', (t) => {
    t.string('mls_email', 255);
  });
  // MLS agents made before this column took the MLS's email as their email.
  await knex.raw(`update agents set mls_email = lower(email) where source = 'mls' and email is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('agents', (t) => {
    t.dropColumn('mls_email');
  });
}

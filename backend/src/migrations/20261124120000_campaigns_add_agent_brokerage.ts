import type { Knex } from 'knex';

/**
 * The brokerage the ad names beside the agent ("{agent name} · {brokerage}"): several states require
 * it in the ad itself, and the preview shows it. Copied from the agent when the draft is saved, like
 * agent_name, so the launch sends what the agent saw.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.string('agent_brokerage', 255);
  });
  // Campaigns not launched yet take their agent's brokerage now (a one-time copy at the database level).
  await knex.raw(`
    update campaigns c set agent_brokerage = a.brokerage
      from agents a
     where a.id = c.agent_id and c.status in ('draft', 'pending_payment', 'paid', 'launching')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('agent_brokerage');
  });
}

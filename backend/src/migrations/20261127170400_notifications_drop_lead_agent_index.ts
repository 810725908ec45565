import type { Knex } from 'knex';

/**
 * notification_leads (agent_id) goes: notification_leads_agent_newest_idx (agent_id, created_at desc, lead_id desc)
 * begins with the agent, so a read by agent (and the agents foreign key's check on delete) uses it, and each lead
 * handed to delivery updates one index fewer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists notification_leads_agent_id_idx');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists notification_leads_agent_id_idx on notification_leads (agent_id)');
}

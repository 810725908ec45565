import type { Knex } from 'knex';

/**
 * Indexes for the admin agents list at 100,000 agents / 300,000 campaigns and payments
 * (modules/agents/admin-agent-list.ts):
 * - agents (created_at, id): the default sort and the "created within" filters;
 * - trigram indexes on agents name and email: the search by name or email (ilike '%…%');
 * - campaigns (agent_id) including status: per-agent counts from the index alone;
 * - payments (campaign_id) including amount, only succeeded ones: total spent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw('create index agents_created_at_id_idx on agents (created_at, id)');
  await knex.raw('create index agents_name_trgm_idx on agents using gin (name gin_trgm_ops)');
  await knex.raw('create index agents_email_trgm_idx on agents using gin (email gin_trgm_ops)');
  await knex.raw('create index campaigns_agent_id_status_idx on campaigns (agent_id) include (status)');
  await knex.raw(`create index payments_succeeded_campaign_idx on payments (campaign_id) include (amount_cents) where status = 'succeeded'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists payments_succeeded_campaign_idx');
  await knex.raw('drop index if exists campaigns_agent_id_status_idx');
  await knex.raw('drop index if exists agents_email_trgm_idx');
  await knex.raw('drop index if exists agents_name_trgm_idx');
  await knex.raw('drop index if exists agents_created_at_id_idx');
}

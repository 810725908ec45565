import type { Knex } from 'knex';

/**
 * Upload quotas (L4): bytes per identity, summed over the stored uploads. Uploads are counted per agent, and an
 * anonymous wizard's (a session that owns the agent without being logged in as it) also per browser session and
 * per client address, kept here as `client_address`. Partial indexes for those sums.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('uploads', (t) => {
    t.string('client_address', 64);
  });
  await knex.raw(`create index uploads_agent_quota_idx on uploads (agent_id) where status = 'stored'`);
  await knex.raw(`create index uploads_session_quota_idx on uploads (session_id) where status = 'stored' and session_id is not null`);
  await knex.raw(`create index uploads_address_quota_idx on uploads (client_address) where status = 'stored' and client_address is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists uploads_address_quota_idx');
  await knex.raw('drop index if exists uploads_session_quota_idx');
  await knex.raw('drop index if exists uploads_agent_quota_idx');
  await knex.schema.alterTable('uploads', (t) => {
    t.dropColumn('client_address');
  });
}

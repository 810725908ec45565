import type { Knex } from 'knex';

/**
 * LionDesk joins the native CRMs. The agent connects their LionDesk account through OAuth 2.0 (authorization-code
 * grant, developers.liondesk.com/docs/authentication/authorization-grant); the tokens are kept per agent and
 * provider in crm_oauth_connections, sealed like every CRM key (AES-256-GCM, platform/crypto/secret-box), never
 * read back out. `needs_reconnect_at`: LionDesk refused to renew the tokens (revoked), so the agent must connect
 * again. The check states the whole union of CRM types, so branches adding CRMs merge by taking it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_settings
      drop constraint notification_settings_crm_type_check,
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'hubspot', 'realgeeks', 'lofty', 'liondesk', 'custom'))
  `);
  await knex.raw(`
    create table crm_oauth_connections (
      agent_id integer not null references agents(id) on delete cascade,
      provider text not null check (provider in ('liondesk')),
      access_token_enc text not null,
      refresh_token_enc text,
      expires_at timestamptz,
      needs_reconnect_at timestamptz,
      connected_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (agent_id, provider)
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists crm_oauth_connections');
  await knex.raw(`update notification_settings set crm_type = null, crm_api_key_enc = null where crm_type = 'liondesk'`);
  await knex.raw(`
    alter table notification_settings
      drop constraint notification_settings_crm_type_check,
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'hubspot', 'realgeeks', 'lofty', 'custom'))
  `);
}

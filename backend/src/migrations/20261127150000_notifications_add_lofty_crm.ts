import type { Knex } from 'knex';

/**
 * Lofty (formerly Chime) joins the native CRMs: the key field holds the agent's Lofty API key, encrypted like
 * every CRM key. The check states the whole union of CRM types, so branches adding CRMs merge by taking it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_settings
      drop constraint notification_settings_crm_type_check,
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'hubspot', 'realgeeks', 'lofty', 'custom'))
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update notification_settings set crm_type = null, crm_api_key_enc = null where crm_type = 'lofty'`);
  await knex.raw(`
    alter table notification_settings
      drop constraint notification_settings_crm_type_check,
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'hubspot', 'realgeeks', 'custom'))
  `);
}

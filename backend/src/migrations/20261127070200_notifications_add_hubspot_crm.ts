import type { Knex } from 'knex';

/** HubSpot joins the native CRMs (the key field holds its private-app access token, encrypted like every CRM key). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_settings
      drop constraint notification_settings_crm_type_check,
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'hubspot', 'custom'))
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update notification_settings set crm_type = null, crm_api_key_enc = null where crm_type = 'hubspot'`);
  await knex.raw(`
    alter table notification_settings
      drop constraint notification_settings_crm_type_check,
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'custom'))
  `);
}

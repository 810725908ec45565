import type { Knex } from 'knex';

/**
 * REST hooks (POST /api/v1/hooks): subscriptions made with an agent's API key, each one more delivery
 * channel. A lead makes one message per subscribed hook (`hook_id`), through the same jobs, attempts log and
 * replay as every other channel. A hook that answers 410 Gone is unsubscribed (deleted); its messages keep
 * their rows with hook_id null and are not sent again.
 * Also: the `sms` channel and its kinds (text alerts), and the index behind GET /api/v1/leads (the agent's
 * lead snapshots, newest first).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_hooks', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    // The key that subscribed it (agents module): deliveries stop once that key is revoked.
    t.bigInteger('api_key_id').notNullable();
    t.string('event', 30).notNullable();
    t.text('target_url').notNullable();
    t.text('secret_enc').notNullable(); // Standard Webhooks secret, AES-256-GCM with ENCRYPTION_KEY
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['agent_id', 'event', 'target_url']);
  });
  await knex.raw(`alter table notification_hooks add constraint notification_hooks_event_check check (event in ('lead.created'))`);

  await knex.schema.alterTable('notification_messages', (t) => {
    t.bigInteger('hook_id').references('notification_hooks.id').onDelete('SET NULL');
  });
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_channel_check,
      add constraint notification_messages_channel_check check (channel in ('email', 'webhook', 'zapier', 'crm', 'hook', 'sms')),
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in ('lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead', 'lead.sms', 'sms.verification'))
  `);
  await knex.raw(`
    alter table notification_deliveries
      drop constraint notification_deliveries_channel_check,
      add constraint notification_deliveries_channel_check check (channel in ('email', 'webhook', 'zapier', 'crm', 'hook', 'sms'))
  `);
  // One delivery per (lead, channel), and per hook on the hook channel.
  await knex.raw(`drop index notification_messages_lead_channel_unique`);
  await knex.raw(`create unique index notification_messages_lead_channel_unique on notification_messages (lead_id, channel, coalesce(hook_id, 0)) where kind = 'lead.created'`);
  await knex.raw(`create index notification_messages_hook_idx on notification_messages (hook_id) where hook_id is not null`);
  await knex.raw(`create index notification_leads_agent_newest_idx on notification_leads (agent_id, created_at desc, lead_id desc)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists notification_leads_agent_newest_idx`);
  await knex.raw(`drop index if exists notification_messages_hook_idx`);
  await knex.raw(`delete from notification_deliveries where channel in ('hook', 'sms')`);
  await knex.raw(`delete from notification_messages where channel in ('hook', 'sms') or kind in ('lead.sms', 'sms.verification')`);
  await knex.raw(`drop index notification_messages_lead_channel_unique`);
  await knex.raw(`create unique index notification_messages_lead_channel_unique on notification_messages (lead_id, channel) where kind = 'lead.created'`);
  await knex.raw(`
    alter table notification_deliveries
      drop constraint notification_deliveries_channel_check,
      add constraint notification_deliveries_channel_check check (channel in ('email', 'webhook', 'zapier', 'crm'))
  `);
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_channel_check,
      add constraint notification_messages_channel_check check (channel in ('email', 'webhook', 'zapier', 'crm')),
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in ('lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead'))
  `);
  await knex.schema.alterTable('notification_messages', (t) => t.dropColumn('hook_id'));
  await knex.schema.dropTable('notification_hooks');
}

import type { Knex } from 'knex';

/**
 * The notifications module's own tables (DESIGN §1: a module reads and writes only its own tables):
 *  - notification_settings: the agent's lead-notification settings, moved here from columns on `agents`;
 *  - notification_leads: the snapshot of each lead that deliveries send (retries send the same bytes)
 *    and the daily digest reads;
 *  - notification_messages: one thing to deliver on one channel (one per lead and channel), its
 *    Standard Webhooks id and its retry state;
 *  - notification_deliveries (existing): one row per attempt, now tied to its message.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_settings', (t) => {
    t.integer('agent_id').primary().references('agents.id').onDelete('CASCADE');
    t.boolean('email_notifications').notNullable().defaultTo(true);
    t.boolean('instant_notifications').notNullable().defaultTo(true);
    t.text('webhook_url');
    t.text('webhook_secret_enc'); // AES-256-GCM with ENCRYPTION_KEY; write-only on the wire
    t.timestamp('webhook_disabled_at', { useTz: true }); // the receiver answered 410 Gone
    t.text('zapier_webhook_url');
    t.timestamp('zapier_disabled_at', { useTz: true });
    t.string('crm_type', 50);
    t.text('crm_webhook_url');
    t.text('crm_api_key_enc'); // AES-256-GCM with ENCRYPTION_KEY; write-only on the wire
    t.timestamp('crm_disabled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table notification_settings
      add constraint notification_settings_crm_type_check check (crm_type is null or crm_type in ('followupboss', 'custom')),
      add constraint notification_settings_secret_needs_url_check check (webhook_secret_enc is null or webhook_url is not null)
  `);
  // Move the settings off `agents` (no agent ever had a non-default value: nothing wrote them before).
  await knex.raw(`
    insert into notification_settings (agent_id, email_notifications, instant_notifications, webhook_url, webhook_secret_enc,
                                       zapier_webhook_url, crm_type, crm_webhook_url, crm_api_key_enc)
    select id, email_notifications, instant_notifications, webhook_url, case when webhook_url is null then null else webhook_secret_enc end,
           zapier_webhook_url, case when crm_type in ('followupboss', 'custom') then crm_type end, crm_webhook_url, crm_api_key_enc
      from agents
     where webhook_url is not null or zapier_webhook_url is not null or crm_type is not null
        or email_notifications = false or instant_notifications = false
  `);
  await knex.schema.alterTable('agents', (t) => {
    t.dropColumns('webhook_url', 'webhook_secret_enc', 'email_notifications', 'instant_notifications', 'crm_type', 'crm_webhook_url', 'crm_api_key_enc', 'zapier_webhook_url');
  });

  await knex.schema.createTable('notification_leads', (t) => {
    t.integer('lead_id').primary().references('leads.id').onDelete('CASCADE');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.jsonb('snapshot').notNullable();
    // Instant notifications off: the lead waits for the daily digest email.
    t.boolean('digest_due').notNullable().defaultTo(false);
    t.timestamp('digested_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`create index notification_leads_digest_idx on notification_leads (agent_id) where digest_due and digested_at is null`);

  await knex.schema.createTable('notification_messages', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.integer('lead_id').references('leads.id').onDelete('CASCADE');
    t.integer('campaign_id').references('campaigns.id').onDelete('CASCADE');
    t.string('kind', 30).notNullable();
    t.string('channel', 20).notNullable();
    t.string('webhook_id', 100).notNullable().unique(); // Standard Webhooks `webhook-id`, stable across retries
    t.jsonb('payload').notNullable(); // what is sent, fixed at creation
    t.string('status', 20).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    // Automatic attempts end here (10, the schedule's length; a replay allows exactly one more).
    t.integer('last_attempt_allowed').notNullable();
    t.timestamp('next_attempt_at', { useTz: true });
    // Held while an attempt is in flight, so a job that runs twice sends once.
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['agent_id', 'created_at']);
  });
  await knex.raw(`
    alter table notification_messages
      add constraint notification_messages_channel_check check (channel in ('email', 'webhook', 'zapier', 'crm')),
      add constraint notification_messages_kind_check check (kind in ('lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead')),
      add constraint notification_messages_status_check check (status in ('pending', 'delivered', 'dead')),
      add constraint notification_messages_attempts_check check (attempts >= 0 and attempts <= last_attempt_allowed)
  `);
  // One delivery per (lead, channel); one go-live email per campaign.
  await knex.raw(`create unique index notification_messages_lead_channel_unique on notification_messages (lead_id, channel) where kind = 'lead.created'`);
  await knex.raw(`create unique index notification_messages_campaign_unique on notification_messages (campaign_id, kind) where campaign_id is not null`);

  await knex.schema.alterTable('notification_deliveries', (t) => {
    t.bigInteger('message_id').notNullable().references('notification_messages.id').onDelete('CASCADE');
    t.string('kind', 30).notNullable();
    t.text('warning');
    t.index(['message_id']);
  });
  await knex.raw(`
    alter table notification_deliveries
      drop constraint notification_deliveries_status_check,
      add constraint notification_deliveries_status_check check (status in ('succeeded', 'failed', 'dead', 'disabled'))
  `);
  await knex.raw(`create index notification_deliveries_agent_filter_idx on notification_deliveries (agent_id, channel, status, id desc)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists notification_deliveries_agent_filter_idx`);
  await knex.raw(`
    alter table notification_deliveries
      drop constraint notification_deliveries_status_check,
      add constraint notification_deliveries_status_check check (status in ('succeeded', 'failed', 'dead'))
  `);
  await knex.schema.alterTable('notification_deliveries', (t) => {
    t.dropColumns('message_id', 'kind', 'warning');
  });
  await knex.schema.dropTable('notification_messages');
  await knex.schema.dropTable('notification_leads');
  await knex.schema.alterTable('agents', (t) => {
    t.text('webhook_url');
    t.text('webhook_secret_enc');
    t.boolean('email_notifications').notNullable().defaultTo(true);
    t.boolean('instant_notifications').notNullable().defaultTo(true);
    t.string('crm_type', 50);
    t.text('crm_webhook_url');
    t.text('crm_api_key_enc');
    t.text('zapier_webhook_url');
  });
  await knex.raw(`
    update agents a set webhook_url = s.webhook_url, webhook_secret_enc = s.webhook_secret_enc, email_notifications = s.email_notifications,
           instant_notifications = s.instant_notifications, crm_type = s.crm_type, crm_webhook_url = s.crm_webhook_url,
           crm_api_key_enc = s.crm_api_key_enc, zapier_webhook_url = s.zapier_webhook_url
      from notification_settings s where s.agent_id = a.id
  `);
  await knex.schema.dropTable('notification_settings');
}

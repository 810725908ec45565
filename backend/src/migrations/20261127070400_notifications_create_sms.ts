import type { Knex } from 'knex';

/**
 * Text alerts (SMS) to the agent:
 *  - notification_sms: one row per agent with text alerts: the number (E.164), its state (pending a code,
 *    active, stopped by an inbound STOP), the hashed one-time code, the consent (time, the text shown, the
 *    address it came from), and when the last text went out (at most one a minute: checked under the row's lock).
 *  - notification_sms_texts: one text as sent, for the leads of one minute grouped together; each lead's
 *    sms message points at the text that carried it (notification_messages.sms_text_id).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_sms', (t) => {
    t.integer('agent_id').primary().references('agents.id').onDelete('CASCADE');
    t.string('phone', 20).notNullable(); // E.164
    t.string('status', 10).notNullable();
    t.string('code_hash', 64); // HMAC-SHA256 of the one-time code
    t.timestamp('code_expires_at', { useTz: true });
    t.smallint('code_attempts').notNullable().defaultTo(0);
    t.timestamp('consent_at', { useTz: true });
    t.text('consent_text');
    t.specificType('consent_ip', 'inet');
    t.timestamp('stopped_at', { useTz: true });
    t.timestamp('last_sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['phone']);
  });
  await knex.raw(`
    alter table notification_sms
      add constraint notification_sms_status_check check (status in ('pending', 'active', 'stopped')),
      add constraint notification_sms_consent_check check (status = 'pending' or (consent_at is not null and consent_text is not null))
  `);
  await knex.schema.createTable('notification_sms_texts', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    // The sms message whose attempt sends this text; the other leads' messages are carried by it.
    t.bigInteger('message_id').notNullable();
    t.text('body').notNullable();
    t.specificType('lead_ids', 'int[]').notNullable();
    t.text('provider_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('notification_messages', (t) => {
    t.bigInteger('sms_text_id').references('notification_sms_texts.id').onDelete('SET NULL');
  });
  await knex.raw(`create index notification_messages_sms_waiting_idx on notification_messages (agent_id, id) where channel = 'sms' and status = 'pending' and sms_text_id is null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists notification_messages_sms_waiting_idx`);
  await knex.schema.alterTable('notification_messages', (t) => t.dropColumn('sms_text_id'));
  await knex.schema.dropTable('notification_sms_texts');
  await knex.schema.dropTable('notification_sms');
}

import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One row per delivery attempt (email, webhook, Zapier, CRM): the dashboard and the ops CLI read these.
  await knex.schema.createTable('notification_deliveries', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.integer('lead_id').references('leads.id').onDelete('CASCADE');
    t.string('channel', 20).notNullable();
    t.string('event_id', 100).notNullable(); // the Standard Webhooks `webhook-id`, stable across retries
    t.integer('attempt').notNullable();
    t.string('status', 20).notNullable();
    t.text('target'); // URL or address, never a secret
    t.integer('response_code');
    t.string('response_body', 2000);
    t.text('error');
    t.integer('duration_ms');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['event_id', 'channel', 'attempt']);
    t.index(['agent_id', 'created_at']);
    t.index(['lead_id']);
  });
  await knex.raw(`
    alter table notification_deliveries
      add constraint notification_deliveries_channel_check check (channel in ('email', 'webhook', 'zapier', 'crm')),
      add constraint notification_deliveries_status_check check (status in ('succeeded', 'failed', 'dead')),
      add constraint notification_deliveries_attempt_check check (attempt >= 1)
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_deliveries');
}

import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payments', (t) => {
    t.increments('id');
    // One payment per campaign: no campaign is charged twice.
    t.integer('campaign_id').notNullable().unique().references('campaigns.id').onDelete('RESTRICT');
    t.string('provider', 20).notNullable();
    t.string('provider_payment_id', 255).unique();
    t.string('idempotency_key', 255).notNullable().unique();
    t.integer('amount_cents').notNullable();
    t.string('currency', 3).notNullable().defaultTo('usd');
    t.string('status', 40).notNullable().defaultTo('requires_payment_method');
    t.text('failure_message');
    t.timestamp('succeeded_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table payments
      add constraint payments_provider_check check (provider in ('stripe', 'local')),
      add constraint payments_status_check check (status in ('requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'succeeded', 'failed', 'canceled')),
      add constraint payments_amount_check check (amount_cents > 0)
  `);
  // Provider webhook events, de-duplicated by their id.
  await knex.schema.createTable('payment_events', (t) => {
    t.string('id', 255).primary();
    t.string('provider', 20).notNullable();
    t.string('type', 100).notNullable();
    t.string('provider_payment_id', 255);
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_events');
  await knex.schema.dropTable('payments');
}

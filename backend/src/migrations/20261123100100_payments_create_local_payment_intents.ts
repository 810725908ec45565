import type { Knex } from 'knex';

/**
 * The embedded payment provider's own PaymentIntents (DESIGN §1, local test payments): the same
 * server flow as Stripe's, with Stripe's test card numbers. No card number is stored: brand and
 * last four digits only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('local_payment_intents', (t) => {
    t.string('id', 64).primary(); // pi_local_…
    t.string('client_secret', 128).notNullable().unique(); // pi_local_…_secret_…
    t.string('idempotency_key', 255).notNullable().unique();
    t.integer('amount_cents').notNullable();
    t.string('currency', 3).notNullable().defaultTo('usd');
    t.string('status', 40).notNullable().defaultTo('requires_payment_method');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.text('last_payment_error');
    t.string('card_brand', 20);
    t.string('card_last4', 4);
    t.integer('confirm_attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table local_payment_intents
      add constraint local_payment_intents_status_check check (status in ('requires_payment_method', 'requires_action', 'succeeded', 'canceled')),
      add constraint local_payment_intents_amount_check check (amount_cents > 0),
      add constraint local_payment_intents_last4_check check (card_last4 is null or card_last4 ~ '^[0-9]{4}$')
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('local_payment_intents');
}

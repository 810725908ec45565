import type { Knex } from 'knex';

/**
 * Saved cards (autopilot charges a card off-session when a draft's veto window ends):
 *  - payment_cards: the agent's customer at the payment provider and the card saved on it (a Stripe
 *    Customer and PaymentMethod, or the local provider's own), with brand, last 4 and expiry to show.
 *    No card number is ever stored.
 *  - local_setup_intents / local_payment_methods: the embedded provider's own SetupIntents and saved
 *    PaymentMethods, as Stripe keeps them: a saved test card remembers how it behaves off-session
 *    (4242… succeeds, 4000 0027 6000 3184 needs authentication, 4000 0000 0000 0341 is declined).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_cards', (t) => {
    t.integer('agent_id').primary().references('agents.id').onDelete('CASCADE');
    t.string('provider', 20).notNullable();
    t.string('customer_id', 255).notNullable();
    t.string('payment_method_id', 255);
    t.string('brand', 20);
    t.string('last4', 4);
    t.integer('exp_month');
    t.integer('exp_year');
    t.timestamp('saved_at', { useTz: true });
    // The SetupIntent the agent is completing now (a new card replaces the saved one only once it succeeds).
    t.string('pending_setup_intent_id', 255);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table payment_cards
      add constraint payment_cards_provider_check check (provider in ('stripe', 'local')),
      add constraint payment_cards_last4_check check (last4 is null or last4 ~ '^[0-9]{4}$'),
      add constraint payment_cards_saved_check check ((payment_method_id is null) = (saved_at is null))
  `);

  await knex.schema.createTable('local_payment_methods', (t) => {
    t.string('id', 64).primary(); // pm_local_…
    t.string('customer_id', 64).notNullable();
    t.string('brand', 20).notNullable();
    t.string('last4', 4).notNullable();
    t.integer('exp_month').notNullable();
    t.integer('exp_year').notNullable();
    // What charging it without the card holder does (Stripe's test card behaviours).
    t.string('off_session', 40).notNullable();
    t.timestamp('detached_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table local_payment_methods add constraint local_payment_methods_off_session_check check (off_session in ('succeeded', 'authentication_required', 'card_declined'))`);

  await knex.schema.createTable('local_setup_intents', (t) => {
    t.string('id', 64).primary(); // seti_local_…
    t.string('client_secret', 128).notNullable().unique(); // seti_local_…_secret_…
    t.string('customer_id', 64).notNullable();
    t.string('status', 40).notNullable().defaultTo('requires_payment_method');
    t.string('payment_method_id', 64).references('local_payment_methods.id');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.text('last_setup_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table local_setup_intents add constraint local_setup_intents_status_check check (status in ('requires_payment_method', 'requires_action', 'succeeded', 'canceled'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('local_setup_intents');
  await knex.schema.dropTable('local_payment_methods');
  await knex.schema.dropTable('payment_cards');
}

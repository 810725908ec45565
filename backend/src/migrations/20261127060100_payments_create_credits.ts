import type { Knex } from 'knex';

/**
 * Credits for under-delivery (issue 26), the payments module's part:
 *  - campaign_credits: the one credit a campaign's settlement gives (unique campaign_id: exactly once), paid
 *    as a partial refund of its payment (Stripe refunds.create with a per-campaign idempotency key, or the
 *    local test payments' refunds) or as account credit;
 *  - credit_ledger: account credit, append-only (a trigger refuses UPDATE and DELETE); the balance is the sum.
 *    A credit grants (+, once per campaign credit), a paid checkout that used it spends it (−, once per payment);
 *  - credit_preferences: the agent's choice, refund (the default) or account credit;
 *  - local_refunds: the embedded provider's refunds, one per idempotency key, as Stripe keeps them;
 *  - payments: the agent (for the credit a checkout may use) and the credit a checkout applied;
 *  - agents.credited_cents: refunds made plus account credit outstanding, kept by triggers like spent_cents,
 *    so the admin's revenue is net of credits without aggregating the ledger.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table payments
      add column agent_id integer references agents(id) on delete restrict,
      add column credit_applied_cents integer not null default 0,
      add constraint payments_credit_applied_check check (credit_applied_cents >= 0)`);
  await knex.raw(`update payments p set agent_id = c.agent_id from campaigns c where c.id = p.campaign_id`);
  await knex.raw(`create index payments_agent_open_idx on payments (agent_id) where status <> 'succeeded' and credit_applied_cents > 0`);

  await knex.schema.createTable('campaign_credits', (t) => {
    t.increments('id');
    t.integer('campaign_id').notNullable().unique().references('campaigns.id').onDelete('RESTRICT');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('RESTRICT');
    t.integer('payment_id').references('payments.id').onDelete('RESTRICT');
    t.string('method', 20).notNullable();
    t.integer('amount_cents').notNullable();
    t.integer('price_cents').notNullable();
    t.integer('promised').notNullable();
    t.integer('delivered').notNullable();
    t.string('status', 20).notNullable();
    t.string('idempotency_key', 255).notNullable().unique();
    t.string('provider', 20);
    t.string('provider_refund_id', 255);
    t.text('failure_message');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('succeeded_at', { useTz: true });
    t.index(['agent_id', 'created_at']);
  });
  await knex.raw(`
    alter table campaign_credits
      add constraint campaign_credits_method_check check (method in ('refund', 'account_credit')),
      add constraint campaign_credits_status_check check (status in ('pending', 'succeeded', 'failed')),
      add constraint campaign_credits_amount_check check (amount_cents > 0 and amount_cents <= price_cents),
      add constraint campaign_credits_delivery_check check (promised > 0 and delivered >= 0 and delivered < promised),
      add constraint campaign_credits_refund_check check (method = 'account_credit' or payment_id is not null)`);

  await knex.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('RESTRICT');
    t.string('kind', 20).notNullable();
    t.integer('amount_cents').notNullable();
    t.integer('campaign_credit_id').unique().references('campaign_credits.id').onDelete('RESTRICT');
    t.integer('payment_id').unique().references('payments.id').onDelete('RESTRICT');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['agent_id', 'id']);
  });
  await knex.raw(`
    alter table credit_ledger add constraint credit_ledger_entry_check check (
      (kind = 'credit' and amount_cents > 0 and campaign_credit_id is not null and payment_id is null) or
      (kind = 'applied' and amount_cents < 0 and payment_id is not null and campaign_credit_id is null))`);
  await knex.raw(`
    create function credit_ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'credit_ledger is append-only: % refused', tg_op using errcode = 'P0001';
    end $$`);
  await knex.raw(`create trigger credit_ledger_append_only before update or delete on credit_ledger
                  for each row execute function credit_ledger_append_only()`);

  await knex.schema.createTable('credit_preferences', (t) => {
    t.integer('agent_id').primary().references('agents.id').onDelete('CASCADE');
    t.string('method', 20).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table credit_preferences add constraint credit_preferences_method_check check (method in ('refund', 'account_credit'))`);

  await knex.schema.createTable('local_refunds', (t) => {
    t.string('id', 64).primary(); // re_local_…
    t.string('payment_intent_id', 64).notNullable().references('local_payment_intents.id').onDelete('RESTRICT');
    t.integer('amount_cents').notNullable();
    t.string('idempotency_key', 255).notNullable().unique();
    t.string('status', 20).notNullable().defaultTo('succeeded');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['payment_intent_id']);
  });
  await knex.raw(`alter table local_refunds add constraint local_refunds_amount_check check (amount_cents > 0)`);

  // Admin revenue net of credits: refunds made and account credit outstanding, per agent.
  await knex.raw(`alter table agents add column credited_cents bigint not null default 0`);
  await knex.raw(`
    create function agents_credited_from_ledger() returns trigger language plpgsql as $$
    begin
      update agents a set credited_cents = a.credited_cents + d.cents
        from (select agent_id, sum(amount_cents)::bigint as cents from new_rows group by agent_id) d
       where a.id = d.agent_id and d.cents <> 0;
      return null;
    end $$`);
  await knex.raw(`create trigger credit_ledger_agent_credited after insert on credit_ledger referencing new table as new_rows
                  for each statement execute function agents_credited_from_ledger()`);
  await knex.raw(`
    create function agents_credited_from_refunds() returns trigger language plpgsql as $$
    begin
      if new.method = 'refund' and new.status = 'succeeded' and (tg_op = 'INSERT' or old.status <> 'succeeded') then
        update agents set credited_cents = credited_cents + new.amount_cents where id = new.agent_id;
      end if;
      return null;
    end $$`);
  await knex.raw(`create trigger campaign_credits_agent_credited after insert or update of status on campaign_credits
                  for each row execute function agents_credited_from_refunds()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists campaign_credits_agent_credited on campaign_credits');
  await knex.raw('drop trigger if exists credit_ledger_agent_credited on credit_ledger');
  await knex.raw('drop function if exists agents_credited_from_refunds()');
  await knex.raw('drop function if exists agents_credited_from_ledger()');
  await knex.raw('alter table agents drop column credited_cents');
  await knex.schema.dropTable('local_refunds');
  await knex.schema.dropTable('credit_preferences');
  await knex.schema.dropTable('credit_ledger');
  await knex.raw('drop function if exists credit_ledger_append_only()');
  await knex.schema.dropTable('campaign_credits');
  await knex.raw('drop index if exists payments_agent_open_idx');
  await knex.raw('alter table payments drop constraint payments_credit_applied_check, drop column credit_applied_cents, drop column agent_id');
}

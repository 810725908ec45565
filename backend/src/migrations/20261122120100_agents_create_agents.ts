import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agents', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.string('email', 255);
    t.string('phone', 50);
    t.string('state', 100).notNullable();
    t.string('brokerage', 255);
    t.string('mls_id', 100);
    t.string('source', 20).notNullable().defaultTo('manual');
    t.text('profile_image_url');
    t.text('logo_url');
    t.text('password_hash');
    t.string('google_id', 255).unique();
    t.text('webhook_url');
    t.text('webhook_secret_enc'); // AES-256-GCM, write-only on the wire
    t.boolean('email_notifications').notNullable().defaultTo(true);
    t.boolean('instant_notifications').notNullable().defaultTo(true);
    t.string('crm_type', 50);
    t.text('crm_webhook_url');
    t.text('crm_api_key_enc'); // AES-256-GCM, write-only on the wire
    t.text('zapier_webhook_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['mls_id']);
  });
  await knex.raw(`alter table agents add constraint agents_source_check check (source in ('mls', 'manual'))`);
  await knex.raw(`alter table agents add constraint agents_name_check check (length(btrim(name)) > 0)`);
  // Login is by email: one account (an agent with a password) per address.
  await knex.raw(`create unique index agents_login_email_unique on agents (lower(email)) where password_hash is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agents');
}

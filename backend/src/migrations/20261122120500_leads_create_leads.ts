import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('leads', (t) => {
    t.increments('id');
    t.integer('listing_id').notNullable().references('listings.id').onDelete('CASCADE');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('email', 255).notNullable();
    t.string('phone', 50);
    t.text('message');
    t.string('source', 50).notNullable().defaultTo('property_page');
    t.boolean('interested_in_tour').notNullable().defaultTo(false);
    t.boolean('interested_in_similar').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['agent_id', 'created_at']);
    t.index(['listing_id']);
  });
  await knex.raw(`alter table leads add constraint leads_name_check check (length(btrim(name)) > 0)`);
  await knex.raw(`alter table leads add constraint leads_email_check check (position('@' in email) > 1)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('leads');
}

import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 128).primary();
    t.jsonb('data').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id');
    t.string('actor_type', 20).notNullable();
    t.string('actor_id', 100);
    t.string('action', 100).notNullable();
    t.string('target_type', 50);
    t.string('target_id', 100);
    t.jsonb('details').notNullable().defaultTo('{}');
    t.string('ip', 64);
    t.string('request_id', 64);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
    t.index(['target_type', 'target_id']);
  });
  await knex.raw(`alter table audit_log add constraint audit_log_actor_type_check check (actor_type in ('admin', 'agent', 'system', 'visitor'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log');
  await knex.schema.dropTable('sessions');
}

import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploads', (t) => {
    t.uuid('id').primary(); // server-generated; the object's name
    t.string('provider', 20).notNullable();
    t.string('object_path', 255).notNullable().unique(); // /objects/uploads/<id>
    t.string('content_type', 100);
    t.integer('size_bytes');
    t.string('status', 20).notNullable().defaultTo('pending');
    t.string('session_id', 128);
    t.integer('agent_id').references('agents.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('stored_at', { useTz: true });
  });
  await knex.raw(`
    alter table uploads
      add constraint uploads_provider_check check (provider in ('gcs', 'local')),
      add constraint uploads_status_check check (status in ('pending', 'stored', 'rejected')),
      add constraint uploads_size_check check (size_bytes is null or (size_bytes > 0 and size_bytes <= 10485760))
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('uploads');
}

import type { Knex } from 'knex';

/**
 * API keys for the public API (/api/v1), owned by the agents module:
 *  - agent_api_keys: one row per key. Only the SHA-256 of the key is stored (a key is 32 random bytes,
 *    so a fast hash is enough and a lookup is one index probe); its first characters are kept to tell
 *    keys apart on the dashboard. Revoking sets revoked_at: the next request with the key is refused.
 *  - agent_api_key_usage: the audit of every use, aggregated: one row per key, minute, route and status,
 *    counted with an upsert. A busy key writes one small row a minute per route instead of one per
 *    request, and the audit still answers "which key called what, when, with what outcome, how often".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agent_api_keys', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('prefix', 16).notNullable();
    t.string('key_hash', 64).notNullable().unique(); // hex SHA-256 of the whole key
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['agent_id', 'created_at']);
  });
  await knex.raw(`
    alter table agent_api_keys
      add constraint agent_api_keys_scopes_check check (cardinality(scopes) >= 1 and scopes <@ array['leads:read', 'hooks:write']::text[])
  `);
  await knex.schema.createTable('agent_api_key_usage', (t) => {
    t.bigInteger('api_key_id').notNullable().references('agent_api_keys.id').onDelete('CASCADE');
    t.timestamp('minute', { useTz: true }).notNullable();
    t.string('route', 100).notNullable(); // "GET /api/v1/leads": the route template, never the raw path
    t.smallint('status').notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.specificType('last_ip', 'inet');
    t.timestamp('last_at', { useTz: true }).notNullable();
    t.primary(['api_key_id', 'minute', 'route', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agent_api_key_usage');
  await knex.schema.dropTable('agent_api_keys');
}

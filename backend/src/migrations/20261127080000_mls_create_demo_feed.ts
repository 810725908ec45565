import type { Knex } from 'knex';

/**
 * The demo MLS as a living feed (DESIGN §7): its members and listings are rows, served over the RESO
 * Web API's OData query shape by the embedded demo server (modules/mls/demo). `record` is the RESO
 * record as the server sends it, except ModificationTimestamp, which is the column (set by every
 * change). Keys sort bytewise ("C" collation), as RESO servers compare ListingKey in the replication keyset.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table demo_mls_members (
      member_mls_id text collate "C" primary key,
      record jsonb not null,
      constraint demo_mls_members_record_check check (jsonb_typeof(record) = 'object' and record->>'MemberMlsId' = member_mls_id)
    )`);
  await knex.raw(`
    create table demo_mls_properties (
      listing_key text collate "C" primary key,
      modification_timestamp timestamptz(3) not null,
      list_agent_mls_id text collate "C" generated always as (record->>'ListAgentMlsId') stored,
      standard_status text generated always as (record->>'StandardStatus') stored,
      record jsonb not null,
      constraint demo_mls_properties_record_check check (jsonb_typeof(record) = 'object' and record->>'ListingKey' = listing_key and not jsonb_exists(record, 'ModificationTimestamp'))
    )`);
  await knex.raw('create index demo_mls_properties_replication on demo_mls_properties (modification_timestamp, listing_key)');
  await knex.raw('create index demo_mls_properties_agent on demo_mls_properties (list_agent_mls_id, listing_key)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('demo_mls_properties');
  await knex.schema.dropTable('demo_mls_members');
}

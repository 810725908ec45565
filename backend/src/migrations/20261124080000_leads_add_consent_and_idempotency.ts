import type { Knex } from 'knex';

/**
 * A lead keeps its consent record (which consent text was shown, when, on which page, in which browser)
 * and the form's idempotency key: the same submission sent twice (a double tap, a retry) is one lead.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('leads', (t) => {
    t.string('idempotency_key', 64);
    t.string('consent_version', 50);
    t.timestamp('consent_at', { useTz: true });
    t.text('page_url');
    t.text('user_agent');
    t.unique(['listing_id', 'idempotency_key'], { indexName: 'leads_listing_idempotency_key_unique' });
  });
  // A consent version is recorded with its time, never without.
  await knex.raw(`alter table leads add constraint leads_consent_check check (consent_version is null or consent_at is not null)`);
  await knex.raw(`alter table leads add constraint leads_source_check check (length(btrim(source)) > 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table leads drop constraint if exists leads_source_check');
  await knex.raw('alter table leads drop constraint if exists leads_consent_check');
  await knex.schema.alterTable('leads', (t) => {
    t.dropUnique(['listing_id', 'idempotency_key'], 'leads_listing_idempotency_key_unique');
    t.dropColumns('idempotency_key', 'consent_version', 'consent_at', 'page_url', 'user_agent');
  });
}

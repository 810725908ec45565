import type { Knex } from 'knex';

/**
 * uploads.storage_version: the GCS object generation checked when a direct-to-GCS upload was
 * verified. Reads are pinned to it, so bytes written later through the same (still valid) signed
 * URL are never served. Null for local-disk uploads. Plus an index for the sweep of stale pending rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('uploads', (t) => {
    t.string('storage_version', 64);
  });
  await knex.raw(`create index uploads_pending_expires_at_idx on uploads (expires_at) where status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists uploads_pending_expires_at_idx');
  await knex.schema.alterTable('uploads', (t) => {
    t.dropColumn('storage_version');
  });
}

import type { Knex } from 'knex';

/**
 * Small snapshots that every process's metrics share (platform/metrics/queue-stats.ts): one process reads
 * pg-boss's queue counts at most every 10 s and stores them here, the others read them. `claimed_at` is
 * the refresh lease, `taken_at` the time of the stored data. Unlogged: a snapshot is remade within seconds,
 * so a crash that empties the table loses nothing (the next refresh claim inserts the row again).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unlogged table metric_snapshots (
      name text primary key,
      claimed_at timestamptz not null default '-infinity',
      taken_at timestamptz not null default '-infinity',
      data jsonb not null default '[]'
    )`);
  await knex('metric_snapshots').insert({ name: 'job-queues' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('metric_snapshots');
}

import type { Knex } from 'knex';

/**
 * A campaign's delivery per UTC day, for the dashboard's chart: the totals as of the last sync of that day
 * (cumulative, as the ad platform reports lifetime figures), written by campaigns.sync-metrics in the same
 * statement as the campaign's own totals. A day's delivery is that day's total minus the day before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaign_daily_metrics', (t) => {
    t.integer('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('impressions').notNullable();
    t.integer('reach').notNullable();
    t.integer('clicks').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['campaign_id', 'day']);
  });
  await knex.raw(
    'alter table campaign_daily_metrics add constraint campaign_daily_metrics_values_check check (impressions >= 0 and reach >= 0 and clicks >= 0)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('campaign_daily_metrics');
}

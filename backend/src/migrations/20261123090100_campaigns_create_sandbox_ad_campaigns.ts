import type { Knex } from 'knex';

/**
 * The sandbox ad platform's own records (the embedded default for Meta): one row per campaign with
 * its one ad set and ad. Not tied to our campaigns table by a foreign key: it stands for an outside
 * system, which knows our campaigns only by the names we give them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sandbox_ad_campaigns', (t) => {
    t.string('id', 64).primary(); // sbx_cmp_…
    t.string('name', 400).notNullable().unique();
    t.string('objective', 50).notNullable();
    t.jsonb('special_ad_categories').notNullable();
    t.string('country', 2).notNullable();
    t.integer('impressions_goal').notNullable();
    t.string('ad_set_id', 64).unique(); // sbx_adset_…
    t.string('ad_set_name', 400);
    t.integer('daily_budget_cents');
    t.timestamp('starts_at', { useTz: true });
    t.timestamp('ends_at', { useTz: true });
    t.jsonb('targeting');
    t.string('creative_id', 64); // sbx_cre_…
    t.string('ad_id', 64).unique(); // sbx_ad_…
    t.string('ad_name', 400);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table sandbox_ad_campaigns
      add constraint sandbox_ad_campaigns_goal_check check (impressions_goal > 0),
      add constraint sandbox_ad_campaigns_budget_check check (daily_budget_cents is null or daily_budget_cents > 0),
      add constraint sandbox_ad_campaigns_window_check check (ad_set_id is null or (starts_at is not null and ends_at > starts_at))
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sandbox_ad_campaigns');
}

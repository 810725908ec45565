import type { Knex } from 'knex';

/**
 * Proof of delivery (issue 26), the campaigns module's part:
 *  - campaign_daily_metrics holds the ad platform's own daily rows (Meta Insights with time_increment=1):
 *    what was delivered on that day, no longer the lifetime totals as of the day's last sync. The rows
 *    written so far are turned into daily figures (each day minus the day before). Link clicks, spend,
 *    CTR and frequency as the platform reports them are added.
 *  - campaigns: lifetime link clicks and spend beside the impressions, reach (lifetime, date_preset=maximum)
 *    and clicks; when and why delivery ended (goal reached, flight over, or stopped early) and when the
 *    reports module settled the guarantee (settled_at: once, in the settlement's transaction).
 *  - sandbox_ad_campaigns: stopped_at (the sandbox's answer to a stop call: no delivery after it).
 *  - ad_platform_usage: how much of its rate limit an ad platform said we used (Meta's
 *    x-business-use-case-usage) and until when the sync leaves it alone; shared by every process.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    with d as (
      select campaign_id, day,
             greatest(impressions - coalesce(lag(impressions) over w, 0), 0) as impressions,
             greatest(clicks - coalesce(lag(clicks) over w, 0), 0) as clicks,
             greatest(reach - coalesce(lag(reach) over w, 0), 0) as reach
        from campaign_daily_metrics
      window w as (partition by campaign_id order by day))
    update campaign_daily_metrics m
       set impressions = d.impressions, clicks = d.clicks, reach = d.reach
      from d
     where m.campaign_id = d.campaign_id and m.day = d.day`);
  await knex.raw(`
    alter table campaign_daily_metrics
      add column link_clicks integer not null default 0,
      add column spend_cents integer not null default 0,
      add column ctr numeric(9, 4),
      add column frequency numeric(9, 4),
      add constraint campaign_daily_metrics_more_check check (link_clicks >= 0 and spend_cents >= 0)`);
  await knex.raw(`
    alter table campaigns
      add column link_clicks integer not null default 0,
      add column spend_cents integer not null default 0,
      add column ended_at timestamptz,
      add column end_reason varchar(200),
      add column settled_at timestamptz`);
  // The settlement sweep's work list: ended campaigns not settled yet.
  await knex.raw(`create index campaigns_to_settle_idx on campaigns (id) where status = 'completed' and settled_at is null`);
  await knex.raw(`alter table sandbox_ad_campaigns add column stopped_at timestamptz`);
  await knex.schema.createTable('ad_platform_usage', (t) => {
    t.string('platform', 20).primary();
    t.integer('usage_percent').notNullable().defaultTo(0);
    t.timestamp('blocked_until', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ad_platform_usage');
  await knex.raw(`alter table sandbox_ad_campaigns drop column stopped_at`);
  await knex.raw(`drop index if exists campaigns_to_settle_idx`);
  await knex.raw(`alter table campaigns drop column link_clicks, drop column spend_cents, drop column ended_at, drop column end_reason, drop column settled_at`);
  await knex.raw(`
    alter table campaign_daily_metrics drop constraint campaign_daily_metrics_more_check,
      drop column link_clicks, drop column spend_cents, drop column ctr, drop column frequency`);
  await knex.raw(`
    with d as (select campaign_id, day, sum(impressions) over w as impressions, sum(clicks) over w as clicks, sum(reach) over w as reach
                 from campaign_daily_metrics window w as (partition by campaign_id order by day))
    update campaign_daily_metrics m set impressions = d.impressions, clicks = d.clicks, reach = d.reach
      from d where m.campaign_id = d.campaign_id and m.day = d.day`);
}

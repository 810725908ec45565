import type { Knex } from 'knex';
import { CAMPAIGN_STATUSES } from '@app/contracts';

// The lifecycle's one list (contracts). A later change to it comes with its own migration that
// replaces these CHECKs; on a fresh database that one then re-states what this one made.
const STATUSES = CAMPAIGN_STATUSES;
const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaigns', (t) => {
    t.increments('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.integer('listing_id').notNullable().references('listings.id').onDelete('CASCADE');
    t.string('agent_name', 255);
    t.string('state', 100);
    t.string('mls_listing_id', 100);
    t.string('template_type', 20).notNullable();
    t.string('ad_format', 20).notNullable().defaultTo('single');
    t.string('headline', 255);
    t.text('description');
    t.string('subtitle', 255);
    t.string('call_to_action', 50);
    t.string('target_audience', 255);
    t.text('image_url');
    t.jsonb('carousel_images').notNullable().defaultTo('[]');
    t.text('link');
    t.jsonb('targeting').notNullable().defaultTo('{}');
    // Server-computed from the budget (contracts rules), never taken from the browser.
    t.integer('budget_cents').notNullable();
    t.integer('impressions_requested').notNullable();
    t.string('status', 50).notNullable().defaultTo('draft');
    t.timestamp('status_changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('stripe_payment_intent_id', 255);
    t.string('facebook_campaign_id', 100);
    t.text('launch_error');
    t.integer('launch_attempts').notNullable().defaultTo(0);
    t.timestamp('starts_at', { useTz: true });
    t.timestamp('ends_at', { useTz: true });
    // Delivery as last read from the ad platform.
    t.integer('impressions_delivered').notNullable().defaultTo(0);
    t.integer('reach').notNullable().defaultTo(0);
    t.integer('clicks').notNullable().defaultTo(0);
    t.timestamp('metrics_updated_at', { useTz: true });
    t.boolean('notification_sent').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['agent_id', 'created_at']);
    t.index(['listing_id']);
    t.index(['status']);
  });
  await knex.raw(`
    alter table campaigns
      add constraint campaigns_status_check check (status in (${list(STATUSES)})),
      add constraint campaigns_template_type_check check (template_type in ('just-listed', 'just-sold')),
      add constraint campaigns_ad_format_check check (ad_format in ('single', 'carousel')),
      add constraint campaigns_budget_check check (budget_cents between 9900 and 99900),
      add constraint campaigns_impressions_check check (impressions_requested > 0),
      add constraint campaigns_carousel_check check (jsonb_typeof(carousel_images) = 'array' and jsonb_array_length(carousel_images) <= 10),
      add constraint campaigns_delivery_check check (impressions_delivered >= 0 and reach >= 0 and clicks >= 0)
  `);
  await knex.raw(`create unique index campaigns_facebook_campaign_id_unique on campaigns (facebook_campaign_id) where facebook_campaign_id is not null`);

  // Every status transition, with its time (DESIGN §2).
  await knex.schema.createTable('campaign_transitions', (t) => {
    t.bigIncrements('id');
    t.integer('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.string('from_status', 50);
    t.string('to_status', 50).notNullable();
    t.text('reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['campaign_id', 'created_at']);
  });
  await knex.raw(`alter table campaign_transitions add constraint campaign_transitions_to_status_check check (to_status in (${list(STATUSES)}))`);

  await knex.schema.createTable('ad_sets', (t) => {
    t.increments('id');
    // One ad set per campaign: a retried launch finds it instead of making another.
    t.integer('campaign_id').notNullable().unique().references('campaigns.id').onDelete('CASCADE');
    t.string('facebook_ad_set_id', 100).unique();
    t.integer('daily_budget').notNullable(); // cents
    t.jsonb('targeting').notNullable().defaultTo('{}');
    t.string('status', 50).notNullable().defaultTo('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table ad_sets add constraint ad_sets_status_check check (status in ('pending', 'active', 'paused', 'completed', 'failed'))`);
  await knex.raw(`alter table ad_sets add constraint ad_sets_daily_budget_check check (daily_budget > 0)`);

  await knex.schema.createTable('ads', (t) => {
    t.increments('id');
    t.integer('ad_set_id').notNullable().unique().references('ad_sets.id').onDelete('CASCADE');
    t.string('facebook_ad_id', 100).unique();
    t.string('creative_id', 100);
    t.string('headline', 255);
    t.text('primary_text');
    t.text('description');
    t.text('link');
    t.text('image_url');
    t.string('status', 50).notNullable().defaultTo('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table ads add constraint ads_status_check check (status in ('pending', 'active', 'paused', 'completed', 'failed'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ads');
  await knex.schema.dropTable('ad_sets');
  await knex.schema.dropTable('campaign_transitions');
  await knex.schema.dropTable('campaigns');
}

import type { Knex } from 'knex';

const KINDS = ['just_listed', 'just_sold', 'price_improved', 'pause', 'stop', 'resume_offer'];
const STATUSES = [
  // drafts: scheduled → charging → launched; waiting for the agent (card, authentication, a failed charge); or not launched.
  'scheduled', 'charging', 'launched', 'needs_card', 'needs_authentication', 'charge_failed', 'skipped', 'expired', 'failed',
  // delivery follows the listing: pausing → paused, stopping → stopped; a resume offered → resumed or expired.
  'pausing', 'paused', 'stopping', 'stopped', 'offered', 'resumed',
];
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(', ');

/**
 * Autopilot (DESIGN §7):
 *  - autopilot_settings: one row per agent (absent: off, the defaults).
 *  - autopilot_runs: what autopilot did about one listing event for one agent: one row per (event, agent,
 *    kind), so replays, restarts and parallel workers can never make two drafts, charges or launches for
 *    one event. A draft run owns its campaign (unique); its status moves by conditional updates only.
 *  - autopilot_link_uses: the one-tap links' single use (a signed link, once per run and action).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('autopilot_settings', (t) => {
    t.integer('agent_id').primary().references('agents.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    // When autopilot was last turned on: listing events from before then are not acted on.
    t.timestamp('enabled_at', { useTz: true });
    t.boolean('just_listed').notNullable().defaultTo(true);
    t.boolean('just_sold').notNullable().defaultTo(true);
    t.boolean('price_improved').notNullable().defaultTo(false);
    t.integer('budget').notNullable().defaultTo(299);
    t.string('ad_format', 20).notNullable().defaultTo('single');
    t.integer('veto_window_hours').notNullable().defaultTo(24);
    t.boolean('pause_on_pending').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    alter table autopilot_settings
      add constraint autopilot_settings_budget_check check (budget between 99 and 999 and (budget - 99) % 50 = 0),
      add constraint autopilot_settings_format_check check (ad_format in ('single', 'carousel')),
      add constraint autopilot_settings_window_check check (veto_window_hours between 1 and 72)
  `);
  await knex.raw('create index autopilot_settings_enabled on autopilot_settings (agent_id) where enabled');

  await knex.schema.createTable('autopilot_runs', (t) => {
    t.bigIncrements('id');
    t.integer('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.bigInteger('event_id').notNullable().references('mls_listing_events.id').onDelete('CASCADE');
    t.string('feed', 50).notNullable();
    t.text('listing_key').notNullable();
    t.string('kind', 30).notNullable();
    t.string('status', 30).notNullable();
    // The draft this run made (draft kinds); the campaigns a pause, stop or resume acted on.
    t.integer('campaign_id').unique().references('campaigns.id').onDelete('SET NULL');
    t.jsonb('target_campaign_ids').notNullable().defaultTo('[]');
    t.timestamp('detected_at', { useTz: true }).notNullable();
    t.timestamp('launch_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.text('reason');
    // What the dashboard and the emails show: address, price, headline, image, budget…
    t.jsonb('summary').notNullable().defaultTo('{}');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('launched_at', { useTz: true });
    t.string('launched_by', 20);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['event_id', 'agent_id', 'kind']);
    t.index(['agent_id', 'id']);
  });
  await knex.raw(`
    alter table autopilot_runs
      add constraint autopilot_runs_kind_check check (kind in (${list(KINDS)})),
      add constraint autopilot_runs_status_check check (status in (${list(STATUSES)})),
      add constraint autopilot_runs_launched_by_check check (launched_by is null or launched_by in ('window', 'launch_now', 'checkout'))
  `);
  // The sweep's reads: due drafts, and runs waiting for the agent or for their expiry.
  await knex.raw(`create index autopilot_runs_due on autopilot_runs (launch_at) where status in ('scheduled', 'charging')`);
  await knex.raw(`create index autopilot_runs_waiting on autopilot_runs (expires_at) where status in ('needs_card', 'needs_authentication', 'charge_failed', 'offered', 'pausing', 'stopping')`);

  await knex.schema.createTable('autopilot_link_uses', (t) => {
    t.bigInteger('run_id').notNullable().references('autopilot_runs.id').onDelete('CASCADE');
    t.string('action', 20).notNullable();
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['run_id', 'action']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('autopilot_link_uses');
  await knex.schema.dropTable('autopilot_runs');
  await knex.schema.dropTable('autopilot_settings');
}

import type { Knex } from 'knex';

/** The sandbox ad platform pauses and resumes campaigns (as Meta's status=PAUSED does): paused time delivers nothing. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sandbox_ad_campaigns', (t) => {
    t.timestamp('paused_at', { useTz: true });
    t.integer('paused_seconds').notNullable().defaultTo(0);
  });
  await knex.raw('alter table sandbox_ad_campaigns add constraint sandbox_ad_campaigns_paused_check check (paused_seconds >= 0)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sandbox_ad_campaigns', (t) => {
    t.dropColumn('paused_at');
    t.dropColumn('paused_seconds');
  });
}

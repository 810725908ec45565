import type { Knex } from 'knex';
import { CAMPAIGN_STATUSES } from '@app/contracts';

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

/**
 * `paused` joins the campaign lifecycle (active ⇄ paused when the listing goes under contract or off the
 * market and comes back; DESIGN §7), and a campaign keeps what the listing's status cost its guarantee:
 * the impressions not delivered when delivery was stopped (`unused_impressions`, with the reason and
 * time), which settlement reads (campaigns' `guaranteeShortfall`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table campaigns drop constraint campaigns_status_check, add constraint campaigns_status_check check (status in (${list(CAMPAIGN_STATUSES)}))`);
  await knex.raw(
    `alter table campaign_transitions drop constraint campaign_transitions_to_status_check, add constraint campaign_transitions_to_status_check check (to_status in (${list(CAMPAIGN_STATUSES)}))`,
  );
  await knex.schema.alterTable('campaigns', (t) => {
    t.integer('unused_impressions');
    t.text('delivery_stopped_reason');
    t.timestamp('delivery_stopped_at', { useTz: true });
  });
  await knex.raw('alter table campaigns add constraint campaigns_unused_impressions_check check (unused_impressions is null or unused_impressions >= 0)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('campaigns', (t) => {
    t.dropColumn('unused_impressions');
    t.dropColumn('delivery_stopped_reason');
    t.dropColumn('delivery_stopped_at');
  });
}

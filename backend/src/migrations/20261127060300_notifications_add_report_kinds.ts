import type { Knex } from 'knex';

/** The reports' emails (issue 26): the mid-flight report and the final report (with any credit), once per campaign each. */
const BEFORE = `'lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in (${BEFORE}, 'report.mid_flight', 'report.final'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from notification_messages where kind in ('report.mid_flight', 'report.final')`);
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in (${BEFORE}))`);
}

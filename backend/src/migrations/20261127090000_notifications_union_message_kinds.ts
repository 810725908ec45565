import type { Knex } from 'knex';

/**
 * The message kinds of the branches that each rewrote the check on their own list: identity's content-free
 * lead notice, the reports' two emails, and the text alerts. Each earlier migration replaced the whole list, so
 * the last one to run dropped the others' kinds; this one states the union.
 */
const BASE = `'lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead'`;
const ADDED = `'lead.notice', 'report.mid_flight', 'report.final', 'lead.sms', 'sms.verification'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in (${BASE}, ${ADDED}))`);
}

export async function down(knex: Knex): Promise<void> {
  // Back to the list the text alerts' migration left (the last of the three before this one).
  await knex.raw(`delete from notification_messages where kind in ('lead.notice', 'report.mid_flight', 'report.final')`);
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in (${BASE}, 'lead.sms', 'sms.verification'))`);
}

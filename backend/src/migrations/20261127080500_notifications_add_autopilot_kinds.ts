import type { Knex } from 'knex';

/**
 * Autopilot's emails join the messages' kinds. The lists are written out (not read from contracts): a migration
 * states the schema of its moment. The other branches' kinds are kept (a database may have rows of them when this
 * runs); 20261127110000 states the union again after 20261127090000, which was written without autopilot's.
 */
const OTHERS = `'lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead', 'lead.notice', 'report.mid_flight', 'report.final', 'lead.sms', 'sms.verification'`;
const AUTOPILOT = `'autopilot.scheduled', 'autopilot.card_needed', 'autopilot.payment_failed', 'autopilot.confirm_payment', 'autopilot.delivery_stopped', 'autopilot.resume_offer'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table notification_messages drop constraint notification_messages_kind_check, add constraint notification_messages_kind_check check (kind in (${OTHERS}, ${AUTOPILOT}))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from notification_messages where kind like 'autopilot.%'`);
  await knex.raw(`alter table notification_messages drop constraint notification_messages_kind_check, add constraint notification_messages_kind_check check (kind in (${OTHERS}))`);
}

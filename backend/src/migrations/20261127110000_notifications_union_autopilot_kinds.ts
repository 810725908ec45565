import type { Knex } from 'knex';

/**
 * The full union of the message kinds, after 20261127090000 (which states the identity, reports and text-alert
 * branches' kinds and was written without autopilot's): every kind of contracts' DELIVERY_KINDS, plus the text
 * alerts' own. Written out, as a migration states the schema of its moment.
 */
const OTHERS = `'lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead', 'lead.notice', 'report.mid_flight', 'report.final', 'lead.sms', 'sms.verification'`;
const AUTOPILOT = `'autopilot.scheduled', 'autopilot.card_needed', 'autopilot.payment_failed', 'autopilot.confirm_payment', 'autopilot.delivery_stopped', 'autopilot.resume_offer'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in (${OTHERS}, ${AUTOPILOT}))`);
}

export async function down(knex: Knex): Promise<void> {
  // Back to 20261127090000's list.
  await knex.raw(`delete from notification_messages where kind like 'autopilot.%'`);
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in (${OTHERS}))`);
}

import type { Knex } from 'knex';

/**
 * Email only to verified addresses (DESIGN §3, issue 23):
 * - a message whose email may not go out yet (the agent's address is not verified) is `waiting`: no attempt is
 *   made and none is counted; verifying the address sends it (notifications `releaseWaitingEmails`);
 * - `lead.notice`: the content-free notice a lead makes for an identity nobody verified, to the email the MLS
 *   publishes, at most one per agent and clock hour (the unique index; its payload carries the hour).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_status_check,
      add constraint notification_messages_status_check check (status in ('pending', 'delivered', 'dead', 'waiting')),
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in ('lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead', 'lead.notice'))
  `);
  await knex.raw(`create index notification_messages_waiting_idx on notification_messages (agent_id) where status = 'waiting'`);
  await knex.raw(`create unique index notification_messages_notice_hour_unique on notification_messages (agent_id, (payload->>'hour')) where kind = 'lead.notice'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists notification_messages_notice_hour_unique');
  await knex.raw('drop index if exists notification_messages_waiting_idx');
  await knex('notification_messages').where({ kind: 'lead.notice' }).delete();
  await knex('notification_messages').where({ status: 'waiting' }).update({ status: 'pending' });
  await knex.raw(`
    alter table notification_messages
      drop constraint notification_messages_status_check,
      add constraint notification_messages_status_check check (status in ('pending', 'delivered', 'dead')),
      drop constraint notification_messages_kind_check,
      add constraint notification_messages_kind_check check (kind in ('lead.created', 'lead.test', 'lead.digest', 'campaign.live', 'endpoint.disabled', 'delivery.dead'))
  `);
}

import type { Knex } from 'knex';
import { DELIVERY_KINDS } from '@app/contracts';

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

/** Autopilot's emails join the messages' kinds (the one list lives in contracts: DELIVERY_KINDS). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table notification_messages drop constraint notification_messages_kind_check, add constraint notification_messages_kind_check check (kind in (${list(DELIVERY_KINDS)}))`);
}

export async function down(knex: Knex): Promise<void> {
  const before = DELIVERY_KINDS.filter((k) => !k.startsWith('autopilot.'));
  await knex.raw(`alter table notification_messages drop constraint notification_messages_kind_check, add constraint notification_messages_kind_check check (kind in (${list(before)}))`);
}

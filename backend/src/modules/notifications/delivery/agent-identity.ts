import type { Knex } from 'knex';
import type { Db } from '../../../platform/db/knex';

/**
 * The notifications module's part in the agents module's identity hooks (wired by modules/index.ts):
 * `releaseWaitingEmails` (deliver-message.ts) when an address is verified, and this when one agent merges into
 * another: the lead snapshots, messages and delivery attempts follow the agent. The merged agent's settings go
 * with it; the survivor's (the verified one's) stay.
 */
export async function moveAgentNotifications(trx: Knex.Transaction, fromId: number, toId: number): Promise<Record<string, number>> {
  const leadSnapshots = await trx('notificationLeads').where({ agentId: fromId }).update({ agentId: toId });
  const messages = await trx('notificationMessages').where({ agentId: fromId }).update({ agentId: toId });
  const deliveries = await trx('notificationDeliveries').where({ agentId: fromId }).update({ agentId: toId });
  return { leadSnapshots, messages, deliveries };
}

/** Emails held until the agent's address is verified (the dashboard says so). */
export async function countWaitingEmails(db: Db | Knex.Transaction, agentId: number): Promise<number> {
  const [{ count }] = (await db('notificationMessages').where({ agentId, status: 'waiting' }).count({ count: '*' })) as { count: string }[];
  return Number(count);
}

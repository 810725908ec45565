import type { Knex } from 'knex';
import { Agent } from './agent.model';

/**
 * Where an email to the agent may go (DESIGN §3: email only to verified addresses):
 * - `verified`: the agent's verified email; anything may be sent there (leads, digests, reports);
 * - `mls`: an MLS identity nobody verified: the email the MLS publishes, for content-free notices and the go-live
 *   email only, each with a sign-in link that verifies the identity when opened;
 * - `none`: no address may be written to yet (a manual agent nobody verified).
 */
export interface EmailRecipient {
  agentId: number;
  name: string;
  to: string | null;
  kind: 'verified' | 'mls' | 'none';
}

export function recipientOf(a: Agent): EmailRecipient {
  if (a.verified && a.email) return { agentId: a.id, name: a.name, to: a.email.toLowerCase(), kind: 'verified' };
  if (!a.verified && a.source === 'mls' && a.mlsEmail) return { agentId: a.id, name: a.mlsName ?? a.name, to: a.mlsEmail.toLowerCase(), kind: 'mls' };
  return { agentId: a.id, name: a.name, to: null, kind: 'none' };
}

/**
 * The agent's email recipient now, or undefined when the agent no longer exists. Inside a transaction (`trx`) the
 * agent row is read under a share lock: a verification in progress (it holds the row for update) is waited for.
 */
export async function emailRecipientOf(agentId: number, trx?: Knex.Transaction): Promise<EmailRecipient | undefined> {
  const query = Agent.query(trx).findById(agentId);
  const agent = await (trx ? query.forShare() : query);
  return agent ? recipientOf(agent) : undefined;
}

/** `emailRecipientOf` for several agents in one statement (no lock): each existing agent's recipient by id. */
export async function emailRecipientsOf(agentIds: readonly number[]): Promise<Map<number, EmailRecipient>> {
  const out = new Map<number, EmailRecipient>();
  if (!agentIds.length) return out;
  for (const agent of await Agent.query().findByIds([...new Set(agentIds)])) out.set(Number(agent.id), recipientOf(agent));
  return out;
}

// The notifications module's only door: email to agents, and lead delivery (email, webhook, Zapier, CRM).
import type { Knex } from 'knex';
import type { Queue } from '../../platform/jobs/queue';
export { createMailer, outboxDir, type Mailer, type EmailMessage, type SentEmail } from './email/mailer';

/** What the leads module hands over when a lead is stored. */
export interface StoredLead {
  id: number;
  agentId: number;
  listingId: number;
}

/**
 * Enqueue one delivery job per channel the agent has turned on, inside the transaction that stores the
 * lead (so a rolled-back lead is never delivered). The lead-delivery work (issue 9) fills the channels.
 */
export async function enqueueLeadDeliveries(_deps: { queue: Queue }, _trx: Knex.Transaction, _lead: StoredLead): Promise<void> {
  // Channels arrive with the notifications module's delivery jobs.
}

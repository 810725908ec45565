// The notifications module's only door: lead delivery (email, webhook, Zapier, CRM) and the emails that
// tell agents what happened. The email transport itself (SMTP or the .eml outbox) is platform/email.
import type { Knex } from 'knex';
import type { Queue } from '../../platform/jobs/queue';

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

import type { Knex } from 'knex';
import { impressionsForBudget } from '@app/contracts';
import type { Queue } from '../../platform/jobs/queue';
import { notFound } from '../../platform/errors';
import { Campaign, type CampaignStatus } from './campaign.model';
import { transitionCampaign } from './campaign-transitions';
import { launchCampaignJob } from './jobs/launch-campaign.job';

/**
 * What the payments module may do to a campaign (DESIGN §2, §3). Both run in the caller's
 * transaction, next to the payment row they stand for.
 */

/**
 * A confirmed payment: draft | pending_payment → paid and, only when this call moved it, the launch
 * job, enqueued in the same transaction. However often the success screen and the Stripe webhook
 * arrive, and however concurrently, one call moves the campaign (transitionCampaign's conditional
 * update) and so one launch job is sent. The others get `moved: false` and the current status.
 */
export async function markCampaignPaid(
  trx: Knex.Transaction,
  queue: Queue,
  campaignId: number,
  reason: string,
  paidCents?: number,
): Promise<{ moved: boolean; status: CampaignStatus }> {
  if (paidCents !== undefined) {
    // The money decides: an intent paid at its old amount while the agent was changing the budget
    // (back from checkout) buys that amount's impressions, never the new budget's.
    await trx('campaigns')
      .where({ id: campaignId })
      .whereIn('status', ['draft', 'pending_payment'])
      .whereNot({ budgetCents: paidCents })
      .update({ budgetCents: paidCents, impressionsRequested: impressionsForBudget(paidCents / 100), updatedAt: trx.fn.now() });
  }
  const moved = await transitionCampaign(trx, campaignId, ['draft', 'pending_payment'], 'paid', reason);
  if (moved) await queue.send(launchCampaignJob, { campaignId }, { trx, singletonKey: String(campaignId) });
  const row = await trx('campaigns').where({ id: campaignId }).first<{ status: CampaignStatus } | undefined>('status');
  if (!row) throw notFound('campaign');
  // The listing's public page stays the listing agent's: a payment never moves it (DESIGN §3).
  return { moved, status: row.status };
}

/** Checkout started: draft → pending_payment. Any other status is left alone (a no-op, not an error). */
export async function markCampaignPendingPayment(trx: Knex.Transaction, campaignId: number): Promise<{ moved: boolean; status: CampaignStatus }> {
  const moved = await transitionCampaign(trx, campaignId, ['draft'], 'pending_payment', 'checkout started');
  const row = await trx('campaigns').where({ id: campaignId }).first<{ status: CampaignStatus } | undefined>('status');
  if (!row) throw notFound('campaign');
  return { moved, status: row.status };
}

export interface CampaignForPayment {
  id: number;
  agentId: number;
  /** The browser that created it (campaigns' access rule: `assertCampaignAccess`). */
  createdByBrowser: string | null;
  listingId: number;
  /** The amount to charge, computed by the server from the budget when the draft was saved. */
  budgetCents: number;
  status: CampaignStatus;
  impressionsRequested: number;
}

/** The few fields a payment needs; undefined for an unknown campaign. Pass `trx` to read inside a transaction. */
export async function getCampaignForPayment(campaignId: number, trx?: Knex.Transaction): Promise<CampaignForPayment | undefined> {
  const c = await Campaign.query(trx)
    .findById(campaignId)
    .select('id', 'agentId', 'createdByBrowser', 'listingId', 'budgetCents', 'status', 'impressionsRequested');
  if (!c) return undefined;
  return {
    id: c.id,
    agentId: c.agentId,
    createdByBrowser: c.createdByBrowser,
    listingId: c.listingId,
    budgetCents: c.budgetCents,
    status: c.status,
    impressionsRequested: c.impressionsRequested,
  };
}

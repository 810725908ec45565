/* zod-free (contracts/CONTEXT.md): the campaign lifecycle's rules, loaded by the pages without zod. */

/**
 * The campaign lifecycle (DESIGN §2), the one list: the backend's model, the database's
 * campaigns_status_check and the screens all read it from here.
 */
export const CAMPAIGN_STATUSES = [
  'draft',
  'pending_payment',
  'paid',
  'launching',
  'active',
  // The listing went under contract or off the market: delivery stopped at the ad platform (autopilot), it may resume.
  'paused',
  'completed',
  'launch_failed',
  'canceled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Statuses in which the campaign can still be paid for (and its draft still changed). */
export const PAYABLE_STATUSES: readonly CampaignStatus[] = ['draft', 'pending_payment'];
/** Statuses reached once the payment has been taken. */
export const PAID_STATUSES: readonly CampaignStatus[] = ['paid', 'launching', 'active', 'paused', 'completed', 'launch_failed'];

export function isPayable(status: CampaignStatus): boolean {
  return PAYABLE_STATUSES.includes(status);
}
export function isPaid(status: CampaignStatus): boolean {
  return PAID_STATUSES.includes(status);
}

import { impressionsForBudget, type CampaignStatus, type CampaignView } from '@app/contracts';

/** GET /api/campaigns/:id as the checkout and the success screen read it: the wire type and the lifecycle live in contracts. */
export type Campaign = CampaignView;
export type { CampaignStatus };
export { CAMPAIGN_STATUSES, isPaid, isPayable } from '@app/contracts';

/** The success screen's address for a campaign (spec 000 §4: root with payment=success, campaignId and listingId). */
export function successPath(campaign: Pick<Campaign, 'id' | 'listingId'>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    payment: 'success',
    campaignId: String(campaign.id),
    listingId: String(campaign.listingId),
    ...extra,
  });
  return `/?${params.toString()}`;
}

/** "12" → 12; anything but a positive whole number → null. */
export function parseCampaignId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/** Impressions the campaign buys: the server's figure, or the spec's rule for its budget. */
export function campaignImpressions(campaign: Pick<Campaign, 'impressions' | 'price'>): number {
  if (Number.isFinite(campaign.impressions) && campaign.impressions > 0) return campaign.impressions;
  const budget = Number(campaign.price);
  return Number.isFinite(budget) ? impressionsForBudget(budget) : 0;
}

const wholeNumber = new Intl.NumberFormat('en-US');

/** 15000 → "15,000". */
export function formatImpressions(count: number): string {
  return wholeNumber.format(count);
}

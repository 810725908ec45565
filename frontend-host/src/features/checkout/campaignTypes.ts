import { impressionsForBudget, type AdFormat, type TemplateType } from '@app/contracts';

/**
 * GET /api/campaigns/:id as the checkout and the success screen read it. The contracts package has
 * the request schemas but no response type for a campaign, so the fields these screens use are
 * described here from the API's documented answer.
 */
export const CAMPAIGN_STATUSES = [
  'draft',
  'pending_payment',
  'paid',
  'launching',
  'active',
  'completed',
  'launch_failed',
  'canceled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export interface Campaign {
  id: number;
  agentId: number | null;
  listingId: number;
  templateType: TemplateType;
  adFormat: AdFormat;
  headline: string;
  description: string | null;
  /** The budget in whole dollars as a decimal string, e.g. "299". */
  price: string;
  impressions: number;
  impressionsRequested: number;
  status: CampaignStatus;
  launchError?: string | null;
  facebookCampaignId?: string | null;
  imageUrl: string | null;
  carouselImages: string[];
  link: string | null;
  /** Present only if the API includes the listing (spec 001 §3 lists `listing` on a campaign). */
  listing?: { mlsId?: string | null } | null;
  listingMlsId?: string | null;
}

/** Statuses in which the campaign can still be paid for. */
export function isPayable(status: CampaignStatus): boolean {
  return status === 'draft' || status === 'pending_payment';
}

/** Statuses reached once the payment has been taken. */
export function isPaid(status: CampaignStatus): boolean {
  return status === 'paid' || status === 'launching' || status === 'active' || status === 'completed' || status === 'launch_failed';
}

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

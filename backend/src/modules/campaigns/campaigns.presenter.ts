import type { CampaignView } from '@app/contracts';
import type { Campaign } from './campaign.model';

/** Integer cents → the wire's budget string: 29900 → "299", 29950 → "299.50". */
export function centsToBudgetString(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0')}`;
}

/**
 * A campaign on the wire, for its owner (spec 000 §3 field names). `impressions` and
 * `impressionsRequested` are the same server-computed number; `price` is the budget as a string.
 * No payment or delivery internals; the launch's outcome (status, launchError) is the agent's to see.
 */
export function presentCampaign(c: Campaign): CampaignView {
  const targeting = c.targeting ?? {};
  return {
    id: c.id,
    agentId: c.agentId,
    listingId: c.listingId,
    templateType: c.templateType,
    adFormat: c.adFormat,
    headline: c.headline,
    description: c.description,
    subtitle: c.subtitle,
    callToAction: c.callToAction,
    targetAudience: c.targetAudience,
    impressions: c.impressionsRequested,
    impressionsRequested: c.impressionsRequested,
    price: centsToBudgetString(c.budgetCents),
    status: c.status,
    imageUrl: c.imageUrl,
    carouselImages: c.carouselImages ?? [],
    link: c.link,
    targetingLocation: targeting.targetingLocation ?? null,
    targetingInterests: targeting.targetingInterests ?? [],
    targetingTemplate: targeting.targetingTemplate ?? null,
    facebookCampaignId: c.facebookCampaignId,
    // The public listing page is /listing/{mlsId} (spec 001): the success screen links to it.
    listingMlsId: c.mlsListingId,
    // Why the launch failed (launch_failed), or the last transient problem while it retries (launching); null otherwise.
    launchError: c.launchError,
    createdAt: new Date(c.createdAt).toISOString(),
  };
}

export type { CampaignView };

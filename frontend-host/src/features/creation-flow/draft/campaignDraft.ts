import {
  DRAFT_DEFAULT_IMPRESSIONS,
  DRAFT_DEFAULT_PRICE,
  carouselImagesForListing,
  defaultAdContent,
  listingImages,
  listingPagePath,
} from '@app/contracts';
import type { Agent, CampaignDraft, Listing } from './wizardTypes';

/**
 * The campaign draft seeded when a listing is chosen (spec 000 §3, §4): ad type from the status,
 * default headline and subtitle, carousel images from the listing's photos (at most 10), and the
 * listing's public page as the link.
 */
export function campaignDraftFor(agent: Agent, listing: Listing, description: string): CampaignDraft {
  const content = defaultAdContent(listing);
  return {
    agentId: agent.id,
    listingId: listing.id,
    templateType: content.templateType,
    adFormat: content.adFormat,
    headline: content.headline,
    description,
    subtitle: content.subtitle,
    callToAction: content.callToAction,
    targetAudience: content.targetAudience,
    price: String(DRAFT_DEFAULT_PRICE),
    impressions: DRAFT_DEFAULT_IMPRESSIONS,
    imageUrl: listingImages(listing)[0] ?? null,
    carouselImages: carouselImagesForListing(listing),
    link: new URL(listingPagePath(listing.mlsId || String(listing.id)), window.location.origin).href,
  };
}

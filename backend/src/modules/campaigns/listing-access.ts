import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/errors';
import { getAccessibleAgent } from '../agents';
import { findListingView, type ListingView } from '../listings';

/**
 * The campaigns module's view of a listing, through the listings module's door (it owns the table).
 * Only the fields ad copy and drafts use.
 */
export type CampaignListing = Pick<
  ListingView,
  | 'id'
  | 'agentId'
  | 'mlsId'
  | 'city'
  | 'state'
  | 'price'
  | 'bedrooms'
  | 'bathrooms'
  | 'squareFeet'
  | 'status'
  | 'imageUrl'
  | 'images'
  | 'description'
  | 'lotSizeSqFt'
  | 'yearBuilt'
  | 'garageSpaces'
  | 'propertyType'
  | 'amenities'
  | 'latitude'
  | 'longitude'
>;

export async function findListingForCampaign(listingId: number): Promise<CampaignListing | undefined> {
  return findListingView(listingId);
}

/** A listing whose agent the caller may access, at the wizard's draft level (DESIGN §3): 404 when unknown or someone else's. */
export async function getOwnedListing(actor: Actor, listingId: number): Promise<CampaignListing> {
  const listing = await findListingForCampaign(listingId);
  if (!listing) throw notFound('listing');
  try {
    await getAccessibleAgent(actor, listing.agentId, 'draft');
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw notFound('listing');
    throw err;
  }
  return listing;
}

import type { AgentCampaignListing, LeadDeliveryListing, LeadShownListing, ListingCore, ListingSummary, ListingView } from '@app/contracts';
import type { Listing } from './listing.model';
import { centsToPrice, formatBathrooms, formatDateOnly, toNumberOrNull } from './listing-values';

/** The columns the listing's core is made from (contracts' `listingCoreSchema`). */
export const LISTING_CORE_COLUMNS = [
  'id', 'mlsId', 'address', 'city', 'state', 'postalCode', 'priceCents', 'bedrooms', 'bathrooms', 'squareFeet',
  'status', 'imageUrl', 'images', 'description',
] as const;
export type ListingCoreRow = Pick<Listing, (typeof LISTING_CORE_COLUMNS)[number]>;

/**
 * The listing's core on the wire (contracts' `ListingCore`): price and bathrooms as strings, camelCase. Every
 * presenter of a listing starts here: the summary, the full view, the public listing, the lead delivery's
 * listing and the Property card.
 */
export function presentListingCore(l: ListingCoreRow): ListingCore {
  return {
    id: l.id,
    mlsId: l.mlsId,
    address: l.address,
    city: l.city,
    state: l.state,
    postalCode: l.postalCode,
    price: centsToPrice(l.priceCents),
    bedrooms: l.bedrooms,
    bathrooms: formatBathrooms(l.bathrooms),
    squareFeet: l.squareFeet,
    status: l.status,
    imageUrl: l.imageUrl,
    images: l.images ?? [],
    description: l.description,
  };
}

/** A listing as the wizard's loader lists it (contracts' ListingSummary): the core and its agent. */
export function presentListingSummary(l: ListingCoreRow & Pick<Listing, 'agentId'>): ListingSummary {
  const { id, ...core } = presentListingCore(l);
  // id, then agentId, then the rest: the order the loader's JSON has always had.
  return { id, agentId: l.agentId, ...core };
}

/**
 * A listing on the wire (spec 000 §3), whole: the summary and the MLS's details, no internals
 * (updatedAt stays in the database). Shared by every route that answers with listings.
 */
export function presentListing(l: Listing): ListingView {
  return {
    ...presentListingSummary(l),
    lotSize: l.lotSize,
    lotSizeSqFt: l.lotSizeSqFt,
    yearBuilt: l.yearBuilt,
    garageSpaces: l.garageSpaces,
    propertyType: l.propertyType,
    amenities: l.amenities ?? {},
    elementarySchool: l.elementarySchool,
    middleSchool: l.middleSchool,
    highSchool: l.highSchool,
    schoolDistrict: l.schoolDistrict,
    latitude: toNumberOrNull(l.latitude),
    longitude: toNumberOrNull(l.longitude),
    listDate: formatDateOnly(l.listDate),
    soldDate: formatDateOnly(l.soldDate),
    daysOnMarket: l.daysOnMarket,
    zillowUrl: l.zillowUrl,
    originatingSystemName: l.originatingSystemName,
    mlsCompliance: l.mlsCompliance ?? {},
    createdAt: new Date(l.createdAt).toISOString(),
  };
}

export type { ListingView };

/** What a lead's delivery shows of its listing (contracts' LeadDeliveryListing, less the page URL notifications add). */
export function presentLeadDeliveryListing(l: ListingCoreRow): Omit<LeadDeliveryListing, 'url'> {
  const { id, mlsId, address, city, state, postalCode, price, bedrooms, bathrooms, squareFeet, imageUrl } = presentListingCore(l);
  return { id, mlsId, address, city, state, postalCode, price, bedrooms, bathrooms, squareFeet, imageUrl };
}

/** The listing a "Lead as shown" names (contracts' LeadShownListing): its three columns are all the leads page reads. */
export function presentLeadShownListing(l: Pick<Listing, 'address' | 'priceCents' | 'mlsId'>): LeadShownListing {
  return { address: l.address, price: centsToPrice(l.priceCents), mlsId: l.mlsId };
}

/** The listing a campaign promotes, as the Property card and the reports show it: imageUrl falls back to the first photo. */
export function presentListingCard(l: ListingCoreRow): AgentCampaignListing {
  const { id, mlsId, address, city, state, price, bedrooms, bathrooms, squareFeet, imageUrl, images } = presentListingCore(l);
  return { id, mlsId, address, city, state, price, bedrooms, bathrooms, squareFeet, imageUrl: imageUrl ?? images[0] ?? null };
}

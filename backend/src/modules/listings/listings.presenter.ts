import type { ListingSummary, ListingView } from '@app/contracts';
import type { Listing } from './listing.model';
import { centsToPrice, formatBathrooms, formatDateOnly, toNumberOrNull } from './listing-values';

/**
 * A listing on the wire (spec 000 §3): price and bathrooms as strings, camelCase, no internals
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
/** The columns the wizard's loader reads (ListingSummary): the service selects them, this presenter shapes them. */
export const LISTING_SUMMARY_COLUMNS = [
  'id', 'agentId', 'mlsId', 'address', 'city', 'state', 'postalCode', 'priceCents', 'bedrooms', 'bathrooms', 'squareFeet',
  'status', 'imageUrl', 'images', 'description',
] as const;

export type ListingSummaryRow = Pick<Listing, (typeof LISTING_SUMMARY_COLUMNS)[number]>;

/** A listing as the wizard's loader lists it (contracts' ListingSummary): fewer fields, same formats. */
export function presentListingSummary(l: ListingSummaryRow): ListingSummary {
  return {
    id: l.id,
    agentId: l.agentId,
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

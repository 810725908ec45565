import { formatPrice } from '@app/contracts';
import type { Listing } from '../draft/wizardTypes';

/** "3 bd · 2.5 ba · 1,850 sq ft", leaving out what the listing does not say. */
export function listingFacts(listing: Pick<Listing, 'bedrooms' | 'bathrooms' | 'squareFeet'>): string {
  const parts: string[] = [];
  if (listing.bedrooms !== null && listing.bedrooms !== undefined) parts.push(`${listing.bedrooms} bd`);
  const baths = Number(listing.bathrooms);
  if (listing.bathrooms && Number.isFinite(baths)) parts.push(`${baths} ba`);
  if (listing.squareFeet) parts.push(`${formatPrice(listing.squareFeet)} sq ft`);
  return parts.join(' · ');
}

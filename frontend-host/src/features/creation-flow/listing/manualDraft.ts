import { manualListingDefaults } from '@app/contracts';
import type { Agent, Listing, ManualListingDraft } from '../draft/wizardTypes';

/**
 * The manual listing form's values: what was typed before, else the spec's defaults (state FL or
 * the agent's, 3 bedrooms, 2.0 bathrooms, 1500 sq ft, active), with the agent's name.
 */
export function manualDraftFrom(
  draft: ManualListingDraft | null,
  agent: Pick<Agent, 'name' | 'state'> | null,
): ManualListingDraft {
  if (draft) return draft;
  const d = manualListingDefaults(agent ?? undefined);
  return {
    fullName: d.fullName ?? '',
    state: String(d.state ?? ''),
    address: d.address ?? '',
    city: d.city ?? '',
    price: String(d.price ?? ''),
    bedrooms: String(d.bedrooms ?? ''),
    bathrooms: String(d.bathrooms ?? ''),
    squareFeet: String(d.squareFeet ?? ''),
    status: d.status === 'sold' ? 'sold' : 'active',
    images: [],
  };
}

/** Back to the form after a manual listing was saved: show that listing again. */
export function manualDraftFromListing(listing: Listing, fullName: string): ManualListingDraft {
  return {
    fullName,
    state: listing.state,
    address: listing.address,
    city: listing.city,
    price: listing.price.replace(/\.0+$/, ''),
    bedrooms: listing.bedrooms === null ? '' : String(listing.bedrooms),
    bathrooms: listing.bathrooms ?? '',
    squareFeet: listing.squareFeet === null ? '' : String(listing.squareFeet),
    status: listing.status,
    images: listing.images,
  };
}

// The listings module's only door. It owns the listings table; other modules (mls, campaigns, public pages) go through these.
export { listingsRouter, PUBLIC_LISTING_CACHE } from './listings.routes';
export { upsertMlsListings, moveAgentListings, agentListingIdByMlsId, listAgentListings, findListingView, listingObjectPathsInUse, UPSERT_CHUNK_SIZE, type MlsListingInput } from './listings.service';
export { presentListing, presentListingCore, type ListingView } from './listings.presenter';
export type { MlsCompliance } from './listing.model';
// Public listing pages and leads: one listing, one agent for an mlsId.
export { findListingResponse, findPublicListingRef, findListingSummaries, findListingCards, type ListingCard, type PublicListingRef } from './public-listing';

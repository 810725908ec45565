// The listings module's only door. It owns the listings table; other modules (mls, campaigns, public pages) go through these.
import type { RouteSpec } from '../../platform/http/route';
import { listingsRoutes } from './listings.routes';
export { listingsRouter, PUBLIC_LISTING_CACHE } from './listings.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const listingsRouteSpecs: RouteSpec[] = Object.values(listingsRoutes);
export { upsertMlsListings, moveAgentListings, agentListingIdByMlsId, listAgentListings, findListingView, listingObjectPathsInUse, UPSERT_CHUNK_SIZE, type MlsListingInput } from './listings.service';
export { presentListing, presentListingCore, type ListingView } from './listings.presenter';
export type { MlsCompliance } from './listing.model';
// Public listing pages and leads: one listing, one agent for an mlsId.
export { findListingResponse, findPublicListingRef, findListingSummaries, findListingCards, type ListingCard, type PublicListingRef } from './public-listing';

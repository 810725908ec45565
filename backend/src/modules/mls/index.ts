// The MLS module's only door: the router, the wizard's load, the feed's replication and its events.
import type { RouteSpec } from '../../platform/http/route';
import { mlsRoutes } from './mls.routes';
export { mlsRouter, SEARCH_RATE_LIMIT } from './mls.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const mlsRouteSpecs: RouteSpec[] = Object.values(mlsRoutes);
export { importMlsListings, type ImportResult } from './mls.service';
export { mapResoProperty, mapResoProperties, type MappedBatch, type MapOutcome } from './reso-mapping';
export {
  createMlsProvider,
  createDemoMlsProvider,
  createResoProvider,
  MlsProviderError,
  type MlsProvider,
  type DemoDataset,
  type ResoProviderOptions,
} from './providers';
export { demoPhotoFile } from './demo-photos';

// The demo MLS as a living feed: its records (the bench writes its own) and the changes `npm run ops -- mls demo` makes.
export { seedDemoMls, writeDemoDataset, makeDemoChange, DEMO_CHANGES, type DemoChange, type DemoChangeResult } from './demo/demo-feed';

// Replication (DESIGN §7): polling, re-reading a listing, our listing for a feed record, and the events other modules take.
export { pollFeed, pollProvider, recheckFeedListing, importFeedListing, feedNameOf, type PollOutcome } from './feed/poll';
export { listingEventsPublished, findListingEvents, recentListingEvents, type ListingEvent, type ListingEventsPayload } from './feed/listing-events';
export { LISTING_EVENT_TYPES, type ListingEventType, type ListingPhase } from './feed/classify';
export { pollFeedsJob } from './jobs/poll-feeds.job';

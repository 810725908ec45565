// The listing-pages module's only door: server-rendered public listing pages (DESIGN §6).
import type { RouteSpec } from '../../platform/http/route';
import { listingPagesRoutes } from './listing-pages.routes';
export { listingPagesRouter } from './listing-pages.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const listingPagesRouteSpecs: RouteSpec[] = Object.values(listingPagesRoutes);
// Listing-page views per page and day, as counts (the reports module's figures).
export { listingPageViews } from './page-views';

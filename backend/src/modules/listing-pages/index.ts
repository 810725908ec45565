// The listing-pages module's only door: server-rendered public listing pages (DESIGN §6).
export { listingPagesRouter } from './listing-pages.routes';
// Listing-page views per page and day, as counts (the reports module's figures).
export { listingPageViews } from './page-views';

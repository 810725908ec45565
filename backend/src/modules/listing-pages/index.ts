// The listing-pages module's only door: server-rendered public listing pages (DESIGN §6).
export { listingPagesRouter } from './listing-pages.routes';

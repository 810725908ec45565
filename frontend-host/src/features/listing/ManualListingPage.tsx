// Same as ListingPage: the server renders /manual-listing/:mlsId.
export { default } from './ListingPage';

import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { toastReducer } from '../shared/toastSlice';
import { listingApi } from './listingApi';
import type { ListingPageData } from './pageData';

/** The listing page's store: RTK Query and toasts only (no wizard state). */
const rootReducer = combineSlices(listingApi, { toast: toastReducer });

export function makeListingStore(data: ListingPageData) {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: { apiBaseUrl: '' } } }).concat(listingApi.middleware),
  });
  // The server's data is the first answer of these queries: hydration renders what the server did.
  // upsertQueryEntries is synchronous, so the server's render already reads it.
  if (data.response) {
    store.dispatch(
      listingApi.util.upsertQueryEntries([
        { endpointName: 'getListing', arg: data.mlsId, value: data.response },
        { endpointName: 'getListingCampaign', arg: data.mlsId, value: data.campaign },
      ]),
    );
  }
  return store;
}

export type ListingStore = ReturnType<typeof makeListingStore>;
export type ListingState = ReturnType<ListingStore['getState']>;
export type ListingDispatch = ListingStore['dispatch'];

import type { WithSlice } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { dynamicMiddleware, rootReducer, sliceInjected, store } from './store';
// The zod-free door (@app/contracts/api-client), not the barrel, which carries zod.
import { apiBaseQuery, type ApiError, type RequestArgs } from '@app/contracts/api-client';

export { errorText, failureMessage, isApiError } from '@app/contracts/api-client';
export type { ApiError, ApiErrorBody, ApiExtra, RequestArgs } from '@app/contracts/api-client';

/** Cookies always, JSON in and out, and a non-OK response becomes "<status>: <body text>" (spec §7). */
export const baseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError> = apiBaseQuery;

/** The campaign's tag: the checkout's campaign read provides it; saving a draft and the payment's success refresh it. */
export const CAMPAIGN_TAG = 'Campaign' as const;

/**
 * The host's one RTK Query api (tags more than one feature uses are declared here, once); features add endpoints with `api.injectEndpoints`.
 * Spec defaults: no polling, no refetch on focus or reconnect, data never goes stale
 * (kept for the page's life), no retries (RTK Query retries only when asked to).
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [CAMPAIGN_TAG],
  keepUnusedDataFor: Infinity,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
});

declare module './store' {
  /** The api is one of the store's lazily loaded slices (store.ts). */
  export interface LazyLoadedSlices extends WithSlice<typeof api> {}
}

// Joins the store on first use (see store.ts): reducer, middleware, then its initial state.
rootReducer.inject(api, { overrideExisting: import.meta.hot !== undefined }); // a hot reload re-creates the api
dynamicMiddleware.addMiddleware(api.middleware);
store.dispatch(sliceInjected(api.reducerPath));

import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
// The zod-free door (@app/contracts/api-client), not the barrel, which carries zod.
import { apiBaseQuery, type ApiError, type RequestArgs } from '@app/contracts/api-client';

export { errorText, failureMessage, isApiError } from '@app/contracts/api-client';
export type { ApiError, ApiErrorBody, ApiExtra, RequestArgs } from '@app/contracts/api-client';

/** Cookies always, JSON in and out, and a non-OK response becomes "<status>: <body text>" (spec §7). */
export const baseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError> = apiBaseQuery;

/**
 * The admin app's one RTK Query api; features add endpoints with `api.injectEndpoints`.
 * Spec defaults: no polling, no refetch on focus or reconnect, data never goes stale
 * (kept for the page's life), no retries (RTK Query retries only when asked to).
 */
export const api = createApi({
  reducerPath: 'adminApi',
  baseQuery,
  tagTypes: ['AdminAgent'],
  keepUnusedDataFor: Infinity,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: () => ({}),
});

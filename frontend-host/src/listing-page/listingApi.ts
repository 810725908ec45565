import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type { LeadChallengeAnswer, LeadChallengeRequest, LeadCreated, LeadSubmissionInput, ListingResponse, PublicCampaign } from '@app/contracts';
// The zod-free door, not the contracts barrel (which carries zod): the page's JS stays small.
import { apiBaseQuery, type ApiError, type RequestArgs } from '@app/contracts/api-client';

const baseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError> = apiBaseQuery;

/**
 * The listing page's own RTK Query api (its entry is a separate app from the wizard's host). Spec §9:
 * no polling, no refetch on focus, data never stale, no retries. The server's inlined data fills the cache.
 */
export const listingApi = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: Infinity,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: (build) => ({
    getListing: build.query<ListingResponse, string>({
      query: (mlsId) => `/api/listings/${encodeURIComponent(mlsId)}`,
    }),
    getListingCampaign: build.query<PublicCampaign, string>({
      query: (mlsId) => `/api/listings/${encodeURIComponent(mlsId)}/campaign`,
    }),
    submitLead: build.mutation<LeadCreated, { mlsId: string; lead: LeadSubmissionInput }>({
      query: ({ mlsId, lead }) => ({ url: `/api/listings/${encodeURIComponent(mlsId)}/leads`, method: 'POST', body: lead }),
    }),
    // Asked as the form opens: the challenge to solve while the buyer types, when the listing is guarded.
    requestLeadChallenge: build.mutation<LeadChallengeAnswer, { mlsId: string; form: LeadChallengeRequest }>({
      query: ({ mlsId, form }) => ({ url: `/api/listings/${encodeURIComponent(mlsId)}/lead-challenge`, method: 'POST', body: form }),
    }),
  }),
});

export const { useGetListingQuery, useGetListingCampaignQuery, useSubmitLeadMutation, useRequestLeadChallengeMutation } = listingApi;

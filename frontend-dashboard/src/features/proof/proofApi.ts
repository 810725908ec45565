import type { AgentCredits, AgentReport, CreditMethod } from '@app/contracts';
import { api } from '../../store/api';

/** Proof the ad ran (issue 26): the agent's credits for under-delivery and campaign reports with their seller links. */
export const proofApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCredits: build.query<AgentCredits, string>({
      query: (id) => `/api/agents/${encodeURIComponent(id)}/credits`,
      providesTags: (_r, _e, id) => [{ type: 'Credits', id }],
    }),
    setCreditPreference: build.mutation<AgentCredits, { id: string; method: CreditMethod }>({
      query: ({ id, method }) => ({ url: `/api/agents/${encodeURIComponent(id)}/credits/preference`, method: 'PUT', body: { method } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Credits', id }],
    }),
    getReports: build.query<AgentReport[], string>({
      query: (id) => `/api/agents/${encodeURIComponent(id)}/reports`,
      providesTags: (_r, _e, id) => [{ type: 'Reports', id }],
    }),
    revokeSellerLink: build.mutation<AgentReport, { id: string; campaignId: number }>({
      query: ({ id, campaignId }) => ({ url: `/api/agents/${encodeURIComponent(id)}/reports/${campaignId}/seller-link`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Reports', id }],
    }),
    createSellerLink: build.mutation<AgentReport, { id: string; campaignId: number }>({
      query: ({ id, campaignId }) => ({ url: `/api/agents/${encodeURIComponent(id)}/reports/${campaignId}/seller-link`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Reports', id }],
    }),
  }),
});

export const { useGetCreditsQuery, useSetCreditPreferenceMutation, useGetReportsQuery, useRevokeSellerLinkMutation, useCreateSellerLinkMutation } = proofApi;

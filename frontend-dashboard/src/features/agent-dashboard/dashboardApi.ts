import type { AgentCampaign, AgentLeadsPage, AgentUpdateInput, AgentView, DailyDelivery, FacebookMetrics, LeadReviewed } from '@app/contracts';
import { api } from '../../store/api';


/** The dashboard's reads and the profile edit, logout and the end of an admin's Login As (spec 001 §7). */
export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAgentCampaigns: build.query<AgentCampaign[], string>({
      query: (id) => `/api/agents/${encodeURIComponent(id)}/campaigns`,
    }),
    getFacebookMetrics: build.query<FacebookMetrics | null, string>({
      query: (id) => `/api/agents/${encodeURIComponent(id)}/facebook-metrics`,
    }),
    // The chart's data: asked for beside the tiles' totals, drawn by the lazy chart.
    getDailyDelivery: build.query<DailyDelivery[], string>({
      query: (id) => `/api/agents/${encodeURIComponent(id)}/facebook-metrics/daily`,
    }),
    // Your Leads, a page at a time (newest first): "Show more leads" asks for the next one.
    getAgentLeads: build.infiniteQuery<AgentLeadsPage, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg: id, pageParam }) =>
        `/api/agents/${encodeURIComponent(id)}/leads${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
      providesTags: (_r, _e, id) => [{ type: 'Leads', id }],
    }),
    // The leads held for review while a listing was flooded, a page at a time.
    getHeldLeads: build.infiniteQuery<AgentLeadsPage, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg: id, pageParam }) =>
        `/api/agents/${encodeURIComponent(id)}/leads?status=held${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      providesTags: (_r, _e, id) => [{ type: 'Leads', id }],
    }),
    // Release: the held lead is delivered as a new lead; Discard: it never is. Both lists change.
    reviewLead: build.mutation<LeadReviewed, { agentId: string; leadId: number; action: 'release' | 'discard' }>({
      query: ({ agentId, leadId, action }) => ({ url: `/api/agents/${encodeURIComponent(agentId)}/leads/${leadId}/${action}`, method: 'POST' }),
      invalidatesTags: (_r, _e, { agentId }) => [{ type: 'Leads', id: agentId }],
    }),
    updateProfile: build.mutation<AgentView & { pendingEmail?: string }, { id: string; body: AgentUpdateInput }>({
      query: ({ id, body }) => ({ url: `/api/agents/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Agent', id: Number(id) }, { type: 'Agent', id: 'LIST' }],
    }),
    logout: build.mutation<{ ok: true }, void>({
      query: () => ({ url: '/api/auth/logout', method: 'POST' }),
    }),
    endImpersonation: build.mutation<{ ok: true }, void>({
      query: () => ({ url: '/api/admin/end-impersonation', method: 'POST' }),
    }),
  }),
});

export const {
  useGetAgentCampaignsQuery,
  useGetFacebookMetricsQuery,
  useGetDailyDeliveryQuery,
  useGetAgentLeadsInfiniteQuery,
  useGetHeldLeadsInfiniteQuery,
  useReviewLeadMutation,
  useUpdateProfileMutation,
  useLogoutMutation,
  useEndImpersonationMutation,
} = dashboardApi;

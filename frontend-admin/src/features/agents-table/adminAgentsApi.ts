import type { AdminAgentsPage, AdminAgentsQueryInput, AdminFailedWork, AdminRetryJobPayload } from '@app/contracts';
import { api } from '../../store/api';

/** GET /api/admin/agents (filtered, sorted, paginated and totalled by the server) and the failed-work panel. */
export const adminAgentsApi = api.enhanceEndpoints({ addTagTypes: ['FailedWork'] }).injectEndpoints({
  endpoints: (build) => ({
    adminAgents: build.query<AdminAgentsPage, AdminAgentsQueryInput>({
      query: (params) => ({ url: '/api/admin/agents', params: params as Record<string, string | number> }),
      providesTags: ['AdminAgent'],
    }),
    failedWork: build.query<AdminFailedWork, void>({
      query: () => '/api/admin/failed-work',
      providesTags: ['FailedWork'],
    }),
    retryLaunch: build.mutation<{ ok: true }, number>({
      query: (campaignId) => ({ url: `/api/admin/failed-work/launches/${campaignId}/retry`, method: 'POST' }),
      invalidatesTags: ['FailedWork', 'AdminAgent'],
    }),
    retryJob: build.mutation<{ ok: true }, AdminRetryJobPayload>({
      query: (body) => ({ url: '/api/admin/failed-work/jobs/retry', method: 'POST', body }),
      invalidatesTags: ['FailedWork'],
    }),
  }),
});

export const { useAdminAgentsQuery, useFailedWorkQuery, useRetryLaunchMutation, useRetryJobMutation } = adminAgentsApi;

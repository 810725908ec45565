import type { AutopilotRunView, AutopilotSettingsInput, AutopilotView } from '@app/contracts';
import { api } from '../../store/api';

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}/autopilot`;

/** The Autopilot card's calls: the settings, card, drafts and history in one read; the settings; a run's buttons. */
export const autopilotApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAutopilot: build.query<AutopilotView, string>({
      query: (agentId) => agentPath(agentId),
      providesTags: (_result, _error, agentId) => [{ type: 'Autopilot', id: agentId }],
    }),
    updateAutopilot: build.mutation<AutopilotView, { agentId: string; body: AutopilotSettingsInput }>({
      query: ({ agentId, body }) => ({ url: agentPath(agentId), method: 'PUT', body }),
      // The answer is the whole view: put it in the cache rather than asking again.
      async onQueryStarted({ agentId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(autopilotApi.util.upsertQueryData('getAutopilot', agentId, data));
      },
    }),
    actOnRun: build.mutation<AutopilotRunView, { agentId: string; runId: number; action: 'launch' | 'skip' | 'resume' }>({
      query: ({ agentId, runId, action }) => ({ url: `${agentPath(agentId)}/runs/${runId}/${action}`, method: 'POST', body: {} }),
      invalidatesTags: (_result, _error, { agentId }) => [{ type: 'Autopilot', id: agentId }],
    }),
  }),
});

export const { useGetAutopilotQuery, useUpdateAutopilotMutation, useActOnRunMutation } = autopilotApi;

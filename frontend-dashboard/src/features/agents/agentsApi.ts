import type { AgentView } from '@app/contracts';
import { api } from '../../store/api';

/** An agent as GET /api/agents and GET /api/agents/:id return it (the wire type in contracts). */
export type Agent = AgentView;

export const agentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Agents this browser session may access. */
    getAgents: build.query<Agent[], void>({
      query: () => '/api/agents',
      providesTags: (result) => [
        { type: 'Agent', id: 'LIST' },
        ...(result ?? []).map((agent) => ({ type: 'Agent' as const, id: agent.id })),
      ],
    }),
    getAgent: build.query<Agent, string>({
      query: (id) => `/api/agents/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Agent', id: Number(id) }],
    }),
  }),
});

export const { useGetAgentsQuery, useGetAgentQuery } = agentsApi;

/** Spec: "name - brokerage (state)"; parts that are missing are left out. */
export function agentOptionLabel(agent: Pick<Agent, 'name' | 'brokerage' | 'state'>): string {
  const brokerage = agent.brokerage?.trim();
  const state = agent.state?.trim();
  return `${agent.name}${brokerage ? ` - ${brokerage}` : ''}${state ? ` (${state})` : ''}`;
}

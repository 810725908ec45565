import type { AgentView, AuthAgent, LoginPayload } from '@app/contracts';
import { api } from '../../store/api';

/** Spec §9: auth/me is fresh for 5 minutes (then asked again on the next mount), never retried. */
export const AUTH_ME_STALE_SECONDS = 5 * 60;

/** Who this browser is: the login (POST /api/auth/login), GET /api/auth/me, and the agents it may open. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/auth/me: the logged-in agent, or null when nobody is (401 is an answer here, not a failure). */
    getMe: build.query<AuthAgent | null, void>({
      query: () => ({ url: '/api/auth/me', on401: 'returnNull' }),
      keepUnusedDataFor: AUTH_ME_STALE_SECONDS,
    }),
    /** GET /api/agents: only the agents this session may open (logged in as, or made here without a password). */
    getAccessibleAgents: build.query<AgentView[], void>({
      query: () => '/api/agents',
    }),
    /** POST /api/auth/login: a new session for the agent; the answer names who logged in. */
    login: build.mutation<AuthAgent, LoginPayload>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
      async onQueryStarted(_payload, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        // The /dashboard gate reads auth/me: it now knows without asking again.
        dispatch(authApi.util.upsertQueryData('getMe', undefined, data));
      },
    }),
  }),
});

export const { useGetAccessibleAgentsQuery, useLoginMutation } = authApi;

/** auth/me as the spec reads it: asked again on mount once the answer is older than the stale time. */
export function useAuthMe() {
  return authApi.useGetMeQuery(undefined, { refetchOnMountOrArgChange: AUTH_ME_STALE_SECONDS });
}

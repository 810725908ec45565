import type { AuthAgent, ForgotPasswordSent, LoginPayload, VerificationSent } from '@app/contracts';
import { api } from '../../store/api';

/** Spec §9: auth/me is fresh for 5 minutes (then asked again on the next mount), never retried. */
export const AUTH_ME_STALE_SECONDS = 5 * 60;

/** Who this browser is: the login (POST /api/auth/login), GET /api/auth/me, and the emailed sign-in links. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/auth/me: the signed-in agent, or null when nobody is (401 is an answer here, not a failure). */
    getMe: build.query<AuthAgent | null, void>({
      query: () => ({ url: '/api/auth/me', on401: 'returnNull' }),
      keepUnusedDataFor: AUTH_ME_STALE_SECONDS,
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
    /** POST /api/auth/sign-in-link: "Email me a sign-in link" (the same answer whatever the address). */
    emailSignInLink: build.mutation<ForgotPasswordSent, { email: string }>({
      query: (body) => ({ url: '/api/auth/sign-in-link', method: 'POST', body }),
    }),
    /** POST /api/agents/:id/sign-in-link: a wizard browser offered sign-in for an agent that has an owner (the address comes back masked). */
    emailAgentSignInLink: build.mutation<VerificationSent, { agentId: number }>({
      query: ({ agentId }) => ({ url: `/api/agents/${agentId}/sign-in-link`, method: 'POST' }),
    }),
  }),
});

export const { useLoginMutation, useEmailSignInLinkMutation, useEmailAgentSignInLinkMutation } = authApi;

/** auth/me as the spec reads it: asked again on mount once the answer is older than the stale time. */
export function useAuthMe() {
  return authApi.useGetMeQuery(undefined, { refetchOnMountOrArgChange: AUTH_ME_STALE_SECONDS });
}

/**
 * auth/me asked every `intervalMs` while `active`, and not at all before (RTK Query polling): the success screen
 * watches for this browser being signed in by an emailed link opened in it.
 */
export function useAuthMePolling(active: boolean, intervalMs = 2000) {
  return authApi.useGetMeQuery(undefined, { skip: !active, pollingInterval: active ? intervalMs : 0 });
}

import type { AuthAgent } from '@app/contracts';
import { api } from '../../store/api';

/** GET /api/auth/me (spec §3 "User (auth/me)"). */
export type AuthUser = AuthAgent;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The logged-in agent, or null when the session is not logged in (401 is not an error here). */
    getMe: build.query<AuthUser | null, void>({
      query: () => ({ url: '/api/auth/me', on401: 'returnNull' }),
      providesTags: ['Me'],
    }),
  }),
});

export const { useGetMeQuery } = authApi;

/** Spec §9: auth/me has a 5-minute stale time. */
export const ME_STALE_SECONDS = 300;

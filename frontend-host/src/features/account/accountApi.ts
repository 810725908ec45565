import type { ForgotPasswordSent, Verified } from '@app/contracts';
import { api } from '../../store/api';
import { authApi } from '../auth/authApi';

/** A link that signed this browser in: the /dashboard gate (auth/me) knows without asking again. */
async function signedIn(queryFulfilled: Promise<{ data: Verified }>, dispatch: (action: unknown) => unknown) {
  const { data } = await queryFulfilled.catch(() => ({ data: null }));
  if (data?.loggedIn) dispatch(authApi.util.upsertQueryData('getMe', undefined, { id: data.id, name: data.name }));
}

/** The account's email links: verify an email (account setup, email change), forgot and reset password. */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/auth/verify-email: any emailed link (account setup, sign-in, email change); it signs this browser in. */
    verifyEmail: build.mutation<Verified, { token: string; password?: string }>({
      query: (body) => ({ url: '/api/auth/verify-email', method: 'POST', body }),
      onQueryStarted: (_body, { dispatch, queryFulfilled }) => signedIn(queryFulfilled, dispatch),
    }),
    /** POST /api/auth/forgot-password: the same answer whether or not the email has an account. */
    forgotPassword: build.mutation<ForgotPasswordSent, { email: string }>({
      query: (body) => ({ url: '/api/auth/forgot-password', method: 'POST', body }),
    }),
    /** POST /api/auth/reset-password: a new password from the emailed link; logs this browser in. */
    resetPassword: build.mutation<Verified, { token: string; password: string }>({
      query: (body) => ({ url: '/api/auth/reset-password', method: 'POST', body }),
      onQueryStarted: (_body, { dispatch, queryFulfilled }) => signedIn(queryFulfilled, dispatch),
    }),
  }),
});

export const { useVerifyEmailMutation, useForgotPasswordMutation, useResetPasswordMutation } = accountApi;

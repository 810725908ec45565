import type { ForgotPasswordSent, Verified } from '@app/contracts';
import { api } from '../../store/api';

/** The account's email links: verify an email (account setup, email change), forgot and reset password. */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST /api/auth/verify-email: opened in another browser, an account setup link needs the password chosen here. */
    verifyEmail: build.mutation<Verified, { token: string; password?: string }>({
      query: (body) => ({ url: '/api/auth/verify-email', method: 'POST', body }),
    }),
    /** POST /api/auth/forgot-password: the same answer whether or not the email has an account. */
    forgotPassword: build.mutation<ForgotPasswordSent, { email: string }>({
      query: (body) => ({ url: '/api/auth/forgot-password', method: 'POST', body }),
    }),
    /** POST /api/auth/reset-password: a new password from the emailed link; logs this browser in. */
    resetPassword: build.mutation<Verified, { token: string; password: string }>({
      query: (body) => ({ url: '/api/auth/reset-password', method: 'POST', body }),
    }),
  }),
});

export const { useVerifyEmailMutation, useForgotPasswordMutation, useResetPasswordMutation } = accountApi;

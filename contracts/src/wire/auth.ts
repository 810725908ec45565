import { z } from 'zod';

/** The auth routes' answers (the logged-in agent itself is wire/agents.ts' authAgentSchema). */

/** Answer of the account setup, a sign-in link request for an agent, and an email change: the link is on its way. */
export const verificationSentSchema = z.object({
  status: z.literal('verification_sent'),
  email: z.string(),
  expiresInMinutes: z.number(),
});
export type VerificationSent = z.infer<typeof verificationSentSchema>;

/** Answer of POST /api/auth/verify-email and /api/auth/reset-password: this browser is now logged in. */
export const verifiedSchema = z.object({
  id: z.number(),
  name: z.string(),
  purpose: z.enum(['account_setup', 'email_change', 'password_reset', 'sign_in']),
  /** Whether this browser is now signed in as the agent (every link signs in the browser that opens it). */
  loggedIn: z.boolean(),
});
export type Verified = z.infer<typeof verifiedSchema>;

/** Answer of POST /api/auth/forgot-password: always the same, whether or not the email has an account. */
export const forgotPasswordSentSchema = z.object({ message: z.string() });
export type ForgotPasswordSent = z.infer<typeof forgotPasswordSentSchema>;

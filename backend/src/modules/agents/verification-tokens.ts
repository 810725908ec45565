import { hashOf } from '../../platform/auth/actor';

/**
 * What the email verifications and the jobs that mail them share (kept apart so neither imports the other).
 * `sign_in`: the emailed sign-in link (login page, success screen, and every email to the agent); opening it
 * signs the browser in and, for an identity nobody verified, verifies it.
 */
export type VerificationPurpose = 'account_setup' | 'email_change' | 'password_reset' | 'sign_in';

export const VERIFICATIONS_TABLE = 'agent_email_verifications';

/** Only the SHA-256 of a token is stored: a copy of the table opens no link. */
export const hashToken = hashOf;

/** Where each link opens: the password reset has its own page; the others confirm and sign in. */
export const LINK_PATHS: Record<VerificationPurpose, string> = {
  account_setup: '/verify-email',
  email_change: '/verify-email',
  sign_in: '/verify-email',
  password_reset: '/reset-password',
};

export function linkUrl(baseUrl: string, purpose: VerificationPurpose, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${LINK_PATHS[purpose]}?token=${encodeURIComponent(token)}`;
}

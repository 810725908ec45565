import crypto from 'node:crypto';

/** What the email verifications and the job that mails them share (kept apart so neither imports the other). */
export type VerificationPurpose = 'account_setup' | 'email_change' | 'password_reset';

export const VERIFICATIONS_TABLE = 'agent_email_verifications';

/** Only the SHA-256 of a token is stored: a copy of the table opens no link. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { EMAIL_VERIFICATION_TTL_MINUTES } from '@app/contracts';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import { sendVerificationEmailJob } from './jobs/send-verification-email.job';

import { hashToken, VERIFICATIONS_TABLE, type VerificationPurpose } from './verification-tokens';

export { hashToken, VERIFICATIONS_TABLE, type VerificationPurpose };

export interface EmailVerification {
  id: number;
  agentId: number;
  purpose: VerificationPurpose;
  email: string;
  passwordHash: string | null;
  requesterHash: string | null;
  expiresAt: Date;
}


/**
 * Ask the owner of `email` to confirm it: a verification row (valid 30 minutes) and, in the same
 * transaction, the job that makes its one-time token and emails the link. A newer request replaces the
 * agent's unused older ones of the same purpose, so only the latest link (and chosen password) counts.
 */
export async function requestVerification(
  db: Db,
  queue: Queue,
  v: { agentId: number; purpose: VerificationPurpose; email: string; passwordHash?: string; requesterNonce?: string },
): Promise<void> {
  await db.transaction(async (trx) => {
    await trx(VERIFICATIONS_TABLE).where({ agentId: v.agentId, purpose: v.purpose }).whereNull('usedAt').delete();
    const [row] = await trx(VERIFICATIONS_TABLE)
      .insert({
        agentId: v.agentId,
        purpose: v.purpose,
        email: v.email.trim().toLowerCase(),
        passwordHash: v.passwordHash ?? null,
        requesterHash: v.requesterNonce ? hashToken(v.requesterNonce) : null,
        expiresAt: trx.raw(`now() + make_interval(mins => ?)`, [EMAIL_VERIFICATION_TTL_MINUTES]),
      })
      .returning('id');
    await queue.send(sendVerificationEmailJob, { verificationId: Number((row as { id: number | string }).id) }, { trx });
  });
}

/**
 * Use a link's token, once: the row is marked used in the caller's transaction (a concurrent second
 * use finds nothing), and only when it is unexpired and of one of `purposes`. Null otherwise.
 */
export async function consumeVerification(trx: Knex.Transaction, token: string, purposes: VerificationPurpose[]): Promise<EmailVerification | null> {
  const [row] = await trx(VERIFICATIONS_TABLE)
    .where({ tokenHash: hashToken(token) })
    .whereIn('purpose', purposes)
    .whereNull('usedAt')
    .where('expiresAt', '>', trx.fn.now())
    .update({ usedAt: trx.fn.now() })
    .returning(['id', 'agentId', 'purpose', 'email', 'passwordHash', 'requesterHash', 'expiresAt']);
  return (row as EmailVerification | undefined) ?? null;
}

/** After a password is set or reset, no older link may set another one. */
export async function dropPendingVerifications(trx: Knex.Transaction, agentId: number, purposes: VerificationPurpose[]): Promise<void> {
  await trx(VERIFICATIONS_TABLE).where({ agentId }).whereIn('purpose', purposes).whereNull('usedAt').delete();
}

/** Did the browser holding `nonce` (its session's) ask for this verification? */
export function requestedBy(v: Pick<EmailVerification, 'requesterHash'>, nonce: string | undefined): boolean {
  if (!nonce || !v.requesterHash) return false;
  const a = Buffer.from(hashToken(nonce));
  const b = Buffer.from(v.requesterHash);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

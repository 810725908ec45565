import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { EMAIL_VERIFICATION_TTL_MINUTES } from '@app/contracts';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import { sendVerificationEmailJob } from './jobs/send-verification-email.job';

import { hashToken, linkUrl, VERIFICATIONS_TABLE, type VerificationPurpose } from './verification-tokens';

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
 * `requesterHash`: the asking browser's (its key's hash), so the link knows when it is opened in that browser.
 */
export async function requestVerification(
  db: Db | Knex.Transaction,
  queue: Pick<Queue, 'send'>,
  v: { agentId: number; purpose: VerificationPurpose; email: string; passwordHash?: string | null; requesterHash?: string | null },
): Promise<void> {
  await db.transaction(async (trx) => {
    // Sign-in links may be several at once (each email has its own); of the other purposes only the latest counts.
    if (v.purpose !== 'sign_in') await trx(VERIFICATIONS_TABLE).where({ agentId: v.agentId, purpose: v.purpose }).whereNull('usedAt').delete();
    const [row] = await trx(VERIFICATIONS_TABLE)
      .insert({
        agentId: v.agentId,
        purpose: v.purpose,
        email: v.email.trim().toLowerCase(),
        passwordHash: v.passwordHash ?? null,
        requesterHash: v.requesterHash ?? null,
        expiresAt: trx.raw(`now() + make_interval(mins => ?)`, [EMAIL_VERIFICATION_TTL_MINUTES]),
      })
      .returning('id');
    await queue.send(sendVerificationEmailJob, { verificationId: Number((row as { id: number | string }).id) }, { trx });
  });
}

/**
 * A one-time sign-in link for an email the product sends the agent itself (go-live, leads, digests, notices):
 * its token is made here, the row keeps only its hash, and the link works once, for 30 minutes, like the others.
 * Several such links may be valid at once (each email has its own).
 */
export async function issueSignInLink(db: Db | Knex.Transaction, baseUrl: string, v: { agentId: number; email: string }): Promise<string> {
  const [link] = await issueSignInLinks(db, baseUrl, [v]);
  return link;
}

/**
 * `issueSignInLink` for several emails at once (a delivery worker's fetch), in two statements whatever their number:
 * one delete of the agents' spent links and one insert of the new ones. The links answer in the order asked.
 */
export async function issueSignInLinks(db: Db | Knex.Transaction, baseUrl: string, asked: readonly { agentId: number; email: string }[]): Promise<string[]> {
  if (!asked.length) return [];
  const tokens = asked.map(() => crypto.randomBytes(32).toString('base64url'));
  // The agents' spent sign-in links go as new ones are made: the table holds what may still be opened.
  const agentIds = [...new Set(asked.map((v) => v.agentId))];
  await db(VERIFICATIONS_TABLE).whereIn('agentId', agentIds).where({ purpose: 'sign_in' }).where((q) => q.whereNotNull('usedAt').orWhere('expiresAt', '<', db.fn.now())).delete();
  await db(VERIFICATIONS_TABLE).insert(
    asked.map((v, i) => ({
      agentId: v.agentId,
      purpose: 'sign_in',
      email: v.email.trim().toLowerCase(),
      tokenHash: hashToken(tokens[i]),
      sentAt: db.fn.now(),
      expiresAt: db.raw(`now() + make_interval(mins => ?)`, [EMAIL_VERIFICATION_TTL_MINUTES]),
    })),
  );
  return tokens.map((token) => linkUrl(baseUrl, 'sign_in', token));
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

/** Did the browser whose key hashes to `browserHash` ask for this verification? */
export function requestedBy(v: Pick<EmailVerification, 'requesterHash'>, browserHash: string | null): boolean {
  if (!browserHash || !v.requesterHash) return false;
  const a = Buffer.from(browserHash);
  const b = Buffer.from(v.requesterHash);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

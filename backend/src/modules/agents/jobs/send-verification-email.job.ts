import crypto from 'node:crypto';
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { mailerFor } from '../../../platform/email/mailer';
import { hashToken, VERIFICATIONS_TABLE, type VerificationPurpose } from '../verification-tokens';
import { verificationEmail } from '../verification-emails';

const NAME = 'agents.send-verification-email';

/**
 * Makes a verification's one-time token and emails the link (SMTP or the outbox). The token exists only
 * in the email; the row keeps its hash. Idempotent: a row already sent, used or expired is left alone;
 * a rerun after a crash between sending and recording it sends a fresh link and the older one stops
 * working (its hash is replaced).
 */
export const sendVerificationEmailJob = defineJob({
  name: NAME,
  payload: z.object({ verificationId: z.number().int().positive() }),
  options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 120, deadLetter: deadLetterName(NAME) },
  async handler({ verificationId }, { db, config }) {
    const row = await db(VERIFICATIONS_TABLE)
      .join('agents', 'agents.id', `${VERIFICATIONS_TABLE}.agentId`)
      .where(`${VERIFICATIONS_TABLE}.id`, verificationId)
      .whereNull(`${VERIFICATIONS_TABLE}.sentAt`)
      .whereNull(`${VERIFICATIONS_TABLE}.usedAt`)
      .where(`${VERIFICATIONS_TABLE}.expiresAt`, '>', db.fn.now())
      .first<{ purpose: VerificationPurpose; email: string; name: string } | undefined>(`${VERIFICATIONS_TABLE}.purpose`, `${VERIFICATIONS_TABLE}.email`, 'agents.name');
    if (!row) return;
    const token = crypto.randomBytes(32).toString('base64url');
    const updated = await db(VERIFICATIONS_TABLE).where({ id: verificationId }).whereNull('sentAt').whereNull('usedAt').update({ tokenHash: hashToken(token) });
    if (!updated) return;
    const baseUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
    await mailerFor(config).send(verificationEmail({ purpose: row.purpose, to: row.email, name: row.name, baseUrl, token }));
    await db(VERIFICATIONS_TABLE).where({ id: verificationId }).update({ sentAt: db.fn.now() });
  },
});

import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { refundCredit } from './refund-credit';

/**
 * payments.refund-credit {creditId}: the partial refund of one campaign credit (sent in the settlement's
 * transaction). Retried with backoff; on its last attempt a refund that still fails becomes account credit.
 * Running twice refunds once: the credit's status and its idempotency key.
 */
export const REFUND_RETRY_LIMIT = 5;
export const refundCreditJob = defineJob({
  name: 'payments.refund-credit',
  payload: z.object({ creditId: z.number().int().positive() }),
  options: { retryLimit: REFUND_RETRY_LIMIT, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 120 },
  batchSize: 10,
  async handler({ creditId }, ctx) {
    await refundCredit({ db: ctx.db, config: ctx.config, logger: ctx.logger }, creditId, { lastAttempt: ctx.retryCount >= REFUND_RETRY_LIMIT });
  },
});

import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import { createPaymentProviders, PaymentProviderError, type PaymentProviders } from '../providers';

const providersByConfig = new WeakMap<Config, PaymentProviders>();
function providersFor(config: Config, db: Db, logger: Logger): PaymentProviders {
  let p = providersByConfig.get(config);
  if (!p) providersByConfig.set(config, (p = createPaymentProviders(config, db, logger)));
  return p;
}

export interface RefundDeps {
  db: Db;
  config: Config;
  logger: Logger;
  providers?: PaymentProviders;
}

/**
 * Makes one credit's refund, at most once: only a pending credit is refunded, with its own idempotency key (a
 * second call, even concurrent, gets the same refund from the provider). A refund the provider refuses, or
 * that keeps failing until the last attempt, becomes account credit instead: the agent never loses it.
 */
export async function refundCredit(deps: RefundDeps, creditId: number, opts: { lastAttempt: boolean }): Promise<'refunded' | 'nothing' | 'account_credit'> {
  const { db, logger } = deps;
  const credit = await db('campaignCredits').where({ id: creditId, method: 'refund', status: 'pending' }).first();
  if (!credit) return 'nothing';
  const payment = await db('payments').where({ id: credit.paymentId }).first('provider', 'providerPaymentId');
  const providers = deps.providers ?? providersFor(deps.config, db, logger);
  const provider = payment ? providers.of(payment.provider) : undefined;
  try {
    if (!payment?.providerPaymentId || !provider) throw new PaymentProviderError('the payment to refund is not at a configured provider', { refused: true });
    const refund = await provider.refund({
      intentId: payment.providerPaymentId,
      amountCents: credit.amountCents,
      idempotencyKey: credit.idempotencyKey,
      metadata: { campaignId: String(credit.campaignId), reason: 'under-delivery credit' },
    });
    if (refund.status === 'failed' || refund.status === 'canceled') throw new PaymentProviderError(`the refund ${refund.id} ${refund.status}`, { refused: true });
    await db('campaignCredits')
      .where({ id: creditId, status: 'pending' })
      .update({ status: 'succeeded', provider: payment.provider, providerRefundId: refund.id, succeededAt: db.fn.now(), failureMessage: null, attempts: db.raw('attempts + 1') });
    logger.info({ campaignId: credit.campaignId, refundId: refund.id, amountCents: credit.amountCents }, 'payments: credit refunded');
    return 'refunded';
  } catch (err) {
    const message = (err as Error).message.slice(0, 500);
    const refused = err instanceof PaymentProviderError && err.refused;
    if (!refused && !opts.lastAttempt) {
      await db('campaignCredits').where({ id: creditId, status: 'pending' }).update({ failureMessage: message, attempts: db.raw('attempts + 1') });
      throw err;
    }
    await db.transaction(async (trx) => {
      const [moved] = await trx('campaignCredits')
        .where({ id: creditId, status: 'pending' })
        .update({ method: 'account_credit', status: 'succeeded', succeededAt: trx.fn.now(), failureMessage: `refund failed, credited to the account: ${message}`.slice(0, 500), attempts: trx.raw('attempts + 1') })
        .returning(['id', 'agentId', 'amountCents']);
      if (moved) await trx('creditLedger').insert({ agentId: moved.agentId, kind: 'credit', amountCents: moved.amountCents, campaignCreditId: moved.id });
    });
    logger.warn({ campaignId: credit.campaignId, err: message }, 'payments: refund failed; the credit went to the account instead');
    return 'account_credit';
  }
}


import { PAID_STATUSES, type CreatePaymentIntentResponse } from '@app/contracts';
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Actor } from '../../platform/auth/actor';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import type { Queue } from '../../platform/jobs/queue';
import { notFound } from '../../platform/errors';
import { assertCampaignAccess, getCampaignForPayment, markCampaignPaid, markCampaignPendingPayment, type CampaignForPayment, type CampaignStatus } from '../campaigns';
import { Payment, type PaymentStatus } from './payment.model';
import { alreadyPaid, amountMismatch, campaignCanceled, intentCanceled, notPaid, providerUnavailable } from './payments.errors';
import { applyCreditAtCheckout, spendAppliedCredit } from './credits/credits.service';
import { AMOUNT_UPDATABLE, PaymentProviderError, type PaymentEvent, type PaymentProvider, type PaymentProviderName, type PaymentProviders, type ProviderIntent } from './providers';

export interface PaymentsContext {
  db: Db;
  queue: Queue;
  logger: Logger;
  providers: PaymentProviders;
}

export const CURRENCY = 'usd';
export { ALREADY_PAID_MESSAGE, NOT_PAID_MESSAGE } from './payments.errors';

async function askProvider<T>(logger: Logger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof PaymentProviderError) {
      logger.warn({ err: err.message }, `payments: ${what} failed`);
      throw providerUnavailable();
    }
    throw err;
  }
}

/**
 * The campaign, if the caller may pay for it (DESIGN §3): the agent signed in, or the wizard browser that created
 * it (anyone may pay for an ad that promotes the real agent; the page and the leads stay the agent's). Unknown or
 * someone else's → 404, like a missing one: its id reveals nothing.
 */
async function campaignOfCaller(actor: Actor, campaignId: number): Promise<CampaignForPayment> {
  const campaign = await getCampaignForPayment(campaignId);
  if (!campaign) throw notFound('campaign');
  assertCampaignAccess(actor, campaign);
  return campaign;
}

/** The checkout's figure in dollars is exactly the campaign's budget in cents. */
function amountMatches(amountDollars: number, budgetCents: number): boolean {
  const cents = amountDollars * 100;
  return Math.abs(cents - budgetCents) < 1e-6;
}

/**
 * One idempotency key per campaign, fixed when its payment row is made: every create call for the
 * campaign sends the same key, so Stripe answers with the same PaymentIntent. The random part keeps
 * keys of different databases apart (ids restart in a fresh development database; Stripe remembers
 * keys for 24 hours per account).
 */
function idempotencyKeyFor(campaignId: number): string {
  return `campaign-${campaignId}-payment-${crypto.randomBytes(6).toString('hex')}`;
}

/** The wire answer of POST /api/create-payment-intent (contracts). */
export type CheckoutAnswer = CreatePaymentIntentResponse;

/**
 * POST /api/create-payment-intent. The server charges the campaign's own budget; the browser's
 * figure must match it. One payment (and one PaymentIntent) per campaign: a repeat call answers with
 * the same client secret. Checkout moves the campaign draft → pending_payment; an agent who goes back
 * and edits moves it to draft again (campaigns), and the next call here updates the same intent's
 * amount to the new budget. Only a payment of the campaign's current budget settles (settlePayment).
 */
export async function startCheckout(ctx: PaymentsContext, actor: Actor, input: { campaignId: number; amount: number }): Promise<CheckoutAnswer> {
  const { db, logger, providers } = ctx;
  const seen = await campaignOfCaller(actor, input.campaignId);
  if (PAID_STATUSES.includes(seen.status)) throw alreadyPaid();
  if (seen.status === 'canceled') throw campaignCanceled();
  if (!amountMatches(input.amount, seen.budgetCents)) throw amountMismatch(seen.budgetCents);

  let payment = await db.transaction(async (trx) => {
    // Locks a draft while it moves, so a concurrent edit cannot change the budget under us; re-read after.
    await markCampaignPendingPayment(trx, input.campaignId);
    const campaign = (await getCampaignForPayment(input.campaignId, trx))!;
    if (!amountMatches(input.amount, campaign.budgetCents)) throw amountMismatch(campaign.budgetCents);
    await trx('payments')
      .insert({
        campaignId: campaign.id,
        provider: providers.active.name,
        idempotencyKey: idempotencyKeyFor(campaign.id),
        amountCents: campaign.budgetCents,
        currency: CURRENCY,
        status: 'requires_payment_method',
      })
      .onConflict('campaignId')
      .ignore();
    // The amount: the budget (back from checkout, the agent may have changed it: the same payment and intent
    // take the new amount) less the agent's account credit, which this checkout takes (credits.service.ts).
    const row = (await Payment.query(trx).where({ campaignId: campaign.id }).first())!;
    if (row.status !== 'succeeded') await applyCreditAtCheckout(trx, row.id, campaign.agentId, campaign.budgetCents);
    return (await Payment.query(trx).where({ campaignId: campaign.id }).first())!;
  });
  if (payment.status === 'succeeded') throw alreadyPaid();

  const provider = providers.active;
  if (payment.provider !== provider.name) {
    // Checkout began with the other provider (the configuration changed since). Unless that one was
    // paid, start over with the provider that runs now: the browser can only use that one's form.
    const previous = providers.of(payment.provider);
    const earlier = previous && payment.providerPaymentId ? await askProvider(logger, 'retrieve', () => previous.retrieve(payment.providerPaymentId!)) : null;
    if (previous && earlier?.status === 'succeeded') {
      await settleIfPaid(ctx, previous, payment, earlier, 'create-payment-intent');
      throw alreadyPaid();
    }
    payment = await payment.$query().patchAndFetch({ provider: provider.name, providerPaymentId: null, status: 'requires_payment_method' });
  }

  let intent = payment.providerPaymentId ? await askProvider(logger, 'retrieve', () => provider.retrieve(payment.providerPaymentId!)) : null;
  if (!intent) {
    intent = await askProvider(logger, 'create intent', () =>
      provider.createIntent({ amountCents: payment.amountCents, currency: payment.currency, campaignId: payment.campaignId, idempotencyKey: payment.idempotencyKey }),
    );
    await Payment.query().patch({ providerPaymentId: intent.id }).where({ id: payment.id }).whereNull('providerPaymentId');
    logger.info({ campaignId: payment.campaignId, provider: provider.name, intentId: intent.id }, 'payments: intent created');
  }
  if (intent.amountCents !== payment.amountCents && AMOUNT_UPDATABLE.includes(intent.status)) {
    const from = intent.amountCents;
    intent = await askProvider(logger, 'update amount', () => provider.updateAmount(intent!.id, payment.amountCents));
    logger.info({ campaignId: payment.campaignId, intentId: intent.id, from, to: intent.amountCents }, 'payments: intent amount updated (budget changed)');
  }
  if (intent.status === 'succeeded') {
    // Paid at the provider already (the webhook may still be on its way): settle now, then say so.
    await settleIfPaid(ctx, provider, payment, intent, 'create-payment-intent');
    throw alreadyPaid();
  }
  if (intent.status === 'canceled') throw intentCanceled();
  if (!intent.clientSecret) {
    logger.error({ intentId: intent.id }, 'payments: the provider answered without a client secret');
    throw providerUnavailable();
  }
  return {
    clientSecret: intent.clientSecret,
    provider: provider.name,
    amountCents: payment.amountCents,
    creditAppliedCents: payment.creditAppliedCents,
    publishableKey: provider.publishableKey,
  };
}

/** Does the provider's intent stand for exactly this payment, fully paid? */
function intentPays(intent: ProviderIntent, payment: Payment): boolean {
  return (
    intent.status === 'succeeded' &&
    intent.amountCents === payment.amountCents &&
    intent.currency === payment.currency &&
    intent.metadata.campaignId === String(payment.campaignId)
  );
}

/**
 * The one transaction that makes a payment count: the payment row succeeded and the campaign
 * draft|pending_payment → paid with its launch job (markCampaignPaid, in this transaction). Run
 * however often, concurrently or not: the conditional updates let one of them move the campaign.
 */
export async function settlePayment(trx: Knex.Transaction, queue: Queue, payment: Payment, reason: string): Promise<{ moved: boolean; status: CampaignStatus }> {
  const [now] = await trx('payments')
    .where({ id: payment.id })
    .whereNot({ status: 'succeeded' })
    .update({ status: 'succeeded', succeededAt: trx.fn.now(), failureMessage: null, updatedAt: trx.fn.now() })
    .returning(['amountCents', 'creditAppliedCents']);
  // The payment buys what was charged plus the account credit it used, which it now spends (once).
  const credit = now ? await spendAppliedCredit(trx, payment.id) : payment.creditAppliedCents;
  return markCampaignPaid(trx, queue, payment.campaignId, reason, (now?.amountCents ?? payment.amountCents) + credit);
}

async function settleIfPaid(ctx: PaymentsContext, provider: PaymentProvider, payment: Payment, intent: ProviderIntent, reason: string) {
  if (!intentPays(intent, payment)) return null;
  const result = await ctx.db.transaction((trx) => settlePayment(trx, ctx.queue, payment, reason));
  if (result.moved) ctx.logger.info({ campaignId: payment.campaignId, provider: provider.name, intentId: intent.id, reason }, 'payments: campaign paid');
  return result;
}

/**
 * POST /api/webhook/payment-success (the success screen). Asks the provider whether the campaign's
 * PaymentIntent succeeded for the right amount; only then does anything change. Idempotent.
 */
export async function confirmPaymentSuccess(ctx: PaymentsContext, actor: Actor, campaignId: number): Promise<{ campaignId: number; status: CampaignStatus }> {
  const campaign = await campaignOfCaller(actor, campaignId);
  const payment = await Payment.query().where({ campaignId }).first();
  if (!payment || !payment.providerPaymentId) throw notPaid();
  if (payment.status === 'succeeded') {
    // Settled before (webhook or an earlier call); settling is one transaction, so the campaign moved then.
    return { campaignId, status: campaign.status };
  }
  if (payment.amountCents + payment.creditAppliedCents !== campaign.budgetCents) throw notPaid();
  const provider = ctx.providers.of(payment.provider);
  if (!provider) throw providerUnavailable();
  const intent = await askProvider(ctx.logger, 'retrieve', () => provider.retrieve(payment.providerPaymentId!));
  if (!intent) throw notPaid();
  const result = await settleIfPaid(ctx, provider, payment, intent, 'payment-success');
  if (!result) throw notPaid();
  return { campaignId, status: result.status };
}

/** A provider's event about a PaymentIntent, verified (Stripe: signed) before it gets here. */
export type { PaymentEvent } from './providers';

const STATUS_BY_EVENT: Record<string, PaymentStatus> = {
  'payment_intent.payment_failed': 'failed',
  'payment_intent.requires_action': 'requires_action',
  'payment_intent.processing': 'processing',
  'payment_intent.canceled': 'canceled',
};

/** Our payment for a provider intent: by its id, else (created but not yet recorded) by metadata.campaignId. */
async function paymentForIntent(trx: Knex.Transaction, provider: PaymentProviderName, intent: ProviderIntent): Promise<Payment | undefined> {
  const byId = await Payment.query(trx).where({ provider, providerPaymentId: intent.id }).first();
  if (byId) return byId;
  const campaignId = Number(intent.metadata.campaignId);
  if (!Number.isSafeInteger(campaignId) || campaignId <= 0) return undefined;
  const byCampaign = await Payment.query(trx).where({ provider, campaignId }).whereNull('providerPaymentId').first();
  if (!byCampaign) return undefined;
  await byCampaign.$query(trx).patch({ providerPaymentId: intent.id });
  byCampaign.providerPaymentId = intent.id;
  return byCampaign;
}

export type EventOutcome = 'processed' | 'duplicate' | 'ignored';

/**
 * Process a provider event once: its id goes into payment_events in the same transaction as its
 * effect, so a repeat is a no-op and a failed attempt (rolled back) is processed when it comes again.
 * - payment_intent.succeeded → the payment succeeded and the campaign paid (settlePayment).
 * - payment_intent.payment_failed → the payment failed, with the provider's message.
 */
export async function processPaymentEvent(ctx: PaymentsContext, event: PaymentEvent): Promise<EventOutcome> {
  const { db, queue, logger } = ctx;
  const log = logger.child({ provider: event.provider, eventId: event.id, eventType: event.type });
  return db.transaction(async (trx) => {
    const inserted = await trx('paymentEvents')
      .insert({ id: event.id, provider: event.provider, type: event.type.slice(0, 100), providerPaymentId: event.intent?.id ?? null })
      .onConflict('id')
      .ignore()
      .returning('id');
    if (inserted.length === 0) {
      log.info('payments: duplicate event ignored');
      return 'duplicate';
    }
    const intent = event.intent;
    if (!intent || (event.type !== 'payment_intent.succeeded' && !STATUS_BY_EVENT[event.type])) return 'ignored';
    const payment = await paymentForIntent(trx, event.provider, intent);
    if (!payment) {
      log.warn({ intentId: intent.id }, 'payments: event for a PaymentIntent we did not create');
      return 'ignored';
    }

    if (event.type === 'payment_intent.succeeded') {
      if (!intentPays(intent, payment)) {
        log.error({ intentId: intent.id, amountCents: intent.amountCents, expected: payment.amountCents }, 'payments: succeeded intent does not match the payment');
        return 'ignored';
      }
      const result = await settlePayment(trx, queue, payment, `${event.provider}-webhook`);
      if (result.moved) log.info({ campaignId: payment.campaignId }, 'payments: campaign paid');
      return 'processed';
    }

    const status = STATUS_BY_EVENT[event.type];
    // A succeeded payment stays succeeded, whatever arrives late.
    await trx('payments')
      .where({ id: payment.id })
      .whereNot({ status: 'succeeded' })
      .update({
        status,
        failureMessage: status === 'failed' ? (intent.lastPaymentError ?? 'The payment failed.') : null,
        updatedAt: trx.fn.now(),
      });
    return 'processed';
  });
}

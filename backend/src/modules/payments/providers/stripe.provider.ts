import Stripe from 'stripe';
import { PaymentProviderError, WebhookSignatureError, type PaymentEvent, type CreateIntentInput, type IntentStatus, type PaymentProvider, type ProviderIntent } from './payment-provider';

/** Stripe's default: a signed webhook older than 5 minutes is refused (replay protection). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string;
  /** Network retries by the SDK (it reuses our Idempotency-Key, so a retried create is still one intent). */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

export interface StripeProvider extends PaymentProvider {
  readonly name: 'stripe';
  /**
   * A webhook as our payment event: verifies `Stripe-Signature` over the exact body received
   * (WebhookSignatureError when forged or stale) and reads the PaymentIntent it carries, if any.
   */
  parseWebhook(rawBody: string, signatureHeader: string): PaymentEvent;
}

export function toProviderIntent(pi: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret ?? null,
    status: pi.status as IntentStatus,
    amountCents: pi.amount,
    currency: pi.currency,
    metadata: { ...(pi.metadata ?? {}) },
    lastPaymentError: pi.last_payment_error?.message ?? null,
  };
}

function providerError(action: string, err: unknown): PaymentProviderError {
  const e = err as { message?: string; type?: string; statusCode?: number };
  // 4xx other than rate limiting and idempotency conflicts (a concurrent request with the same key): a refusal.
  const refused = !!e.statusCode && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 429 && e.statusCode !== 409;
  return new PaymentProviderError(`Stripe ${action} failed${e.statusCode ? ` (${e.statusCode})` : ''}: ${e.message ?? String(err)}`, { cause: err, refused });
}

/**
 * Stripe PaymentIntents (https://docs.stripe.com/api/payment_intents): create with amount, currency,
 * automatic payment methods and `metadata.campaignId`, under our Idempotency-Key; retrieve by id.
 * Refunds (https://docs.stripe.com/api/refunds/create): a partial refund of an intent, under our key.
 */
export function createStripeProvider(opts: StripeProviderOptions): StripeProvider {
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: opts.maxNetworkRetries ?? 2,
    timeout: opts.timeoutMs ?? 20_000,
    appInfo: { name: 'listing-ads' },
  });

  return {
    name: 'stripe',
    publishableKey: opts.publishableKey,

    async createIntent(input: CreateIntentInput) {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            automatic_payment_methods: { enabled: true },
            description: `Listing impressions campaign #${input.campaignId}`,
            metadata: { campaignId: String(input.campaignId) },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return toProviderIntent(pi);
      } catch (err) {
        throw providerError('create PaymentIntent', err);
      }
    },

    async updateAmount(intentId: string, amountCents: number) {
      try {
        return toProviderIntent(await stripe.paymentIntents.update(intentId, { amount: amountCents }));
      } catch (err) {
        throw providerError('update PaymentIntent', err);
      }
    },

    async refund(input) {
      try {
        const r = await stripe.refunds.create(
          { payment_intent: input.intentId, amount: input.amountCents, reason: 'requested_by_customer', metadata: input.metadata },
          { idempotencyKey: input.idempotencyKey },
        );
        return { id: r.id, amountCents: r.amount, status: r.status ?? 'pending' };
      } catch (err) {
        throw providerError('create Refund', err);
      }
    },

    async retrieve(intentId: string) {
      try {
        return toProviderIntent(await stripe.paymentIntents.retrieve(intentId));
      } catch (err) {
        const e = err as { statusCode?: number; code?: string };
        if (e.statusCode === 404 || e.code === 'resource_missing') return null;
        throw providerError('retrieve PaymentIntent', err);
      }
    },

    parseWebhook(rawBody: string, signatureHeader: string): PaymentEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, opts.webhookSecret, STRIPE_WEBHOOK_TOLERANCE_SECONDS);
      } catch (err) {
        throw new WebhookSignatureError((err as Error).message, { cause: err });
      }
      const object = event.data?.object as { object?: string } | undefined;
      const intent = object?.object === 'payment_intent' ? toProviderIntent(object as Stripe.PaymentIntent) : null;
      return { id: event.id, provider: 'stripe', type: event.type, intent };
    },
  };
}

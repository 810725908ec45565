import Stripe from 'stripe';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CreateIntentInput,
  type IntentStatus,
  type OffSessionCharge,
  type OffSessionChargeInput,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderIntent,
  type ProviderSetupIntent,
  type SetupIntentStatus,
} from './payment-provider';

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

export function toProviderSetupIntent(si: Stripe.SetupIntent): ProviderSetupIntent {
  const pm = typeof si.payment_method === 'object' && si.payment_method ? si.payment_method : null;
  return {
    id: si.id,
    clientSecret: si.client_secret ?? null,
    status: si.status as SetupIntentStatus,
    customerId: typeof si.customer === 'string' ? si.customer : (si.customer?.id ?? null),
    card: pm?.card ? { paymentMethodId: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month ?? null, expYear: pm.card.exp_year ?? null } : null,
    metadata: { ...(si.metadata ?? {}) },
    lastSetupError: si.last_setup_error?.message ?? null,
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

    async createCustomer(input) {
      try {
        const customer = await stripe.customers.create(
          { name: input.name, ...(input.email ? { email: input.email } : {}), metadata: { agentId: String(input.agentId) } },
          { idempotencyKey: input.idempotencyKey },
        );
        return customer.id;
      } catch (err) {
        throw providerError('create Customer', err);
      }
    },

    async createSetupIntent(input) {
      try {
        // usage off_session: the bank authenticates the card holder now, so later charges without them go through.
        const si = await stripe.setupIntents.create({
          customer: input.customerId,
          usage: 'off_session',
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: { agentId: String(input.agentId) },
        });
        return toProviderSetupIntent(si);
      } catch (err) {
        throw providerError('create SetupIntent', err);
      }
    },

    async retrieveSetupIntent(setupIntentId) {
      try {
        return toProviderSetupIntent(await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }));
      } catch (err) {
        const e = err as { statusCode?: number; code?: string };
        if (e.statusCode === 404 || e.code === 'resource_missing') return null;
        throw providerError('retrieve SetupIntent', err);
      }
    },

    async chargeOffSession(input: OffSessionChargeInput): Promise<OffSessionCharge> {
      try {
        let pi: Stripe.PaymentIntent;
        if (input.intentId) {
          // The payment has an intent already (checkout began, or an earlier attempt failed): the saved card confirms it.
          await stripe.paymentIntents.update(input.intentId, { customer: input.customerId, payment_method: input.paymentMethodId });
          pi = await stripe.paymentIntents.confirm(input.intentId, { payment_method: input.paymentMethodId, off_session: true });
        } else {
          pi = await stripe.paymentIntents.create(
            {
              amount: input.amountCents,
              currency: input.currency,
              customer: input.customerId,
              payment_method: input.paymentMethodId,
              // Nobody is there to follow a redirect: card-like methods only.
              automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
              off_session: true,
              confirm: true,
              description: `Listing impressions campaign #${input.campaignId} (autopilot)`,
              metadata: { campaignId: String(input.campaignId) },
            },
            { idempotencyKey: input.idempotencyKey },
          );
        }
        const intent = toProviderIntent(pi);
        return { intent, outcome: pi.status === 'succeeded' ? 'succeeded' : 'failed', message: intent.lastPaymentError };
      } catch (err) {
        // A card error carries the PaymentIntent it left behind: authentication_required, or a decline.
        const e = err as { type?: string; code?: string; decline_code?: string; message?: string; payment_intent?: Stripe.PaymentIntent };
        if (e.type === 'StripeCardError' && e.payment_intent?.id) {
          const needsAuth = e.code === 'authentication_required' || e.decline_code === 'authentication_required';
          return { intent: toProviderIntent(e.payment_intent), outcome: needsAuth ? 'authentication_required' : 'failed', message: e.message ?? null };
        }
        throw providerError('charge a saved card', err);
      }
    },

    async detachPaymentMethod(paymentMethodId) {
      try {
        await stripe.paymentMethods.detach(paymentMethodId);
      } catch (err) {
        const e = err as { statusCode?: number; code?: string };
        if (e.statusCode === 404 || e.code === 'resource_missing' || e.code === 'payment_method_unexpected_state') return;
        throw providerError('detach PaymentMethod', err);
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

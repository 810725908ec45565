import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import { createLocalPaymentProvider, type LocalPaymentProvider } from './local.provider';
import { createStripeProvider, type StripeProvider } from './stripe.provider';
import type { PaymentProvider, PaymentProviderName } from './payment-provider';

export interface PaymentProviders {
  /** Where new checkouts go: `config.providers.payments`. */
  active: PaymentProvider;
  /** Always present: the embedded default, and the reader of payments made with it before a switch. */
  local: LocalPaymentProvider;
  /** Present when STRIPE_SECRET_KEY (and with it STRIPE_WEBHOOK_SECRET) is configured. */
  stripe?: StripeProvider;
  /** The provider holding a payment made with `name`, if it is configured. */
  of(name: PaymentProviderName): PaymentProvider | undefined;
}

/** Builds the payment providers from configuration and logs which one takes new payments. */
export function createPaymentProviders(config: Config, db: Db, logger: Logger): PaymentProviders {
  const local = createLocalPaymentProvider(db);
  const stripe =
    config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? createStripeProvider({
          secretKey: config.STRIPE_SECRET_KEY,
          publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        })
      : undefined;
  const active: PaymentProvider = config.providers.payments === 'stripe' && stripe ? stripe : local;
  if (active === stripe) {
    const mode = config.STRIPE_SECRET_KEY!.startsWith('sk_live_') ? 'live mode' : 'test mode';
    logger.info({ provider: 'stripe' }, `payments provider: stripe (PaymentIntents, ${mode}; signed webhooks at /api/webhooks/stripe)`);
    if (!stripe!.publishableKey) logger.warn('payments: STRIPE_PUBLISHABLE_KEY is not set; the checkout page cannot load Stripe Elements');
  } else {
    logger.info({ provider: 'local' }, 'payments provider: local test payments (Stripe test card numbers, no network)');
  }
  return { active, local, stripe, of: (name) => (name === 'stripe' ? stripe : local) };
}

export type { PaymentProvider, PaymentProviderName, ProviderIntent, IntentStatus, RefundInput, ProviderRefund } from './payment-provider';
export { AMOUNT_UPDATABLE, PaymentProviderError, WebhookSignatureError, type PaymentEvent } from './payment-provider';
export type { LocalPaymentProvider, LocalIntentRow, LocalIntentChange } from './local.provider';
export type { StripeProvider } from './stripe.provider';
export { STRIPE_WEBHOOK_TOLERANCE_SECONDS } from './stripe.provider';

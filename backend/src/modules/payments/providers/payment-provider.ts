/**
 * A card payment provider: Stripe PaymentIntents, or the embedded local test payments. Both keep
 * the PaymentIntent at the provider; our payments row mirrors it, and the provider's answer is the
 * only thing that makes a payment count (DESIGN §3).
 */
export type PaymentProviderName = 'stripe' | 'local';

/** Stripe's PaymentIntent statuses (the local provider uses a subset). */
export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled';

/** A PaymentIntent as either provider reports it. */
export interface ProviderIntent {
  id: string;
  clientSecret: string | null;
  status: IntentStatus;
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
  /** The last attempt's failure, in the provider's words ("Your card was declined."). */
  lastPaymentError: string | null;
}

export interface CreateIntentInput {
  amountCents: number;
  currency: string;
  campaignId: number;
  /** The same key always yields the same PaymentIntent (Stripe's Idempotency-Key). */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** For Stripe.js in the browser; null for local test payments. */
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** The intent as the provider has it now; null when the provider has no such intent. */
  retrieve(intentId: string): Promise<ProviderIntent | null>;
}

/** The provider could not be asked, or refused the request: a 502 for the caller, never a payment. */
/** A provider's event (webhook) as the payments service processes it: each id once. */
export interface PaymentEvent {
  /** The provider's event id: each is processed once. */
  id: string;
  provider: PaymentProviderName;
  type: string;
  intent: ProviderIntent | null;
}

/** A webhook whose signature does not verify (forged, altered or stale). */
export class WebhookSignatureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookSignatureError';
  }
}

export class PaymentProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderError';
  }
}

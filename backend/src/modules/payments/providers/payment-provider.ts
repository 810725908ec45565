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
  /**
   * A new amount for an intent not paid yet (the agent changed the budget after checkout began):
   * the same intent and client secret, so the checkout page keeps working. Stripe allows it until
   * the intent is processing or succeeded.
   */
  updateAmount(intentId: string, amountCents: number): Promise<ProviderIntent>;
  /**
   * A partial refund of a succeeded intent (Stripe refunds.create({payment_intent, amount}) under our
   * Idempotency-Key: the same key always yields the same refund, never a second one).
   */
  refund(input: RefundInput): Promise<ProviderRefund>;
}

export interface RefundInput {
  intentId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface ProviderRefund {
  id: string;
  amountCents: number;
  /** Stripe: pending, requires_action, succeeded, failed or canceled; local refunds succeed at once. */
  status: string;
}

/** Intent statuses in which the amount may still change. */
export const AMOUNT_UPDATABLE: readonly IntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action'];

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

/** The provider could not be asked, or refused the request: a 502 for the caller, never a payment. */
export class PaymentProviderError extends Error {
  /** The provider refused the request itself (a 4xx such as "amount exceeds the charge"): retrying cannot help. */
  readonly refused: boolean;
  constructor(message: string, options?: { cause?: unknown; refused?: boolean }) {
    super(message, options);
    this.name = 'PaymentProviderError';
    this.refused = options?.refused ?? false;
  }
}

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

/** A card saved on a customer (brand and last 4 to show; never the number). */
export interface SavedCardDetails {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
}

export type SetupIntentStatus = 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

/** A SetupIntent (saving a card for later, off-session use) as either provider reports it. */
export interface ProviderSetupIntent {
  id: string;
  clientSecret: string | null;
  status: SetupIntentStatus;
  customerId: string | null;
  /** The card it set up, once it has one. */
  card: SavedCardDetails | null;
  metadata: Record<string, string>;
  lastSetupError: string | null;
}

export interface OffSessionChargeInput {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  currency: string;
  campaignId: number;
  /** The payment's one key: a repeated create is the same PaymentIntent. */
  idempotencyKey: string;
  /** An intent this payment already has (checkout began, or an earlier attempt): confirmed with the card instead of a new one. */
  intentId: string | null;
}

/**
 * What charging a saved card without the card holder came to: paid; the bank wants the card holder to
 * authenticate (Stripe's `authentication_required`: bring them back on-session with the intent's client
 * secret); or declined. `intent` is the PaymentIntent either way.
 */
export interface OffSessionCharge {
  intent: ProviderIntent;
  outcome: 'succeeded' | 'authentication_required' | 'failed';
  message: string | null;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** For Stripe.js in the browser; null for local test payments. */
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** A customer to save cards on (Stripe: POST /v1/customers). */
  createCustomer(input: { agentId: number; email: string | null; name: string; idempotencyKey: string }): Promise<string>;
  /** A SetupIntent with `usage: off_session` on the customer: the browser confirms it with the card. */
  createSetupIntent(input: { customerId: string; agentId: number }): Promise<ProviderSetupIntent>;
  retrieveSetupIntent(setupIntentId: string): Promise<ProviderSetupIntent | null>;
  /** Charge a saved card with the card holder away (`off_session: true, confirm: true`). */
  chargeOffSession(input: OffSessionChargeInput): Promise<OffSessionCharge>;
  /** Forget a saved card (Stripe: detach the PaymentMethod from its customer). */
  detachPaymentMethod(paymentMethodId: string): Promise<void>;
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

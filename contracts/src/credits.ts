/* zod-free: the credit rules the server, the dashboard and the emails share (contracts/CONTEXT.md). */

/**
 * Credits for under-delivery (issue 26). When a campaign delivers fewer impressions than it promised, its
 * settlement credits round_half_even(price_cents × (promised − delivered) / promised): as a partial refund of
 * its payment (the default) or as account credit, applied automatically at the agent's next checkout.
 */
export const CREDIT_METHODS = ['refund', 'account_credit'] as const;
export type CreditMethod = (typeof CREDIT_METHODS)[number];

/** The agent's words for the two methods (dashboard, emails). */
export const CREDIT_METHOD_LABELS: Record<CreditMethod, string> = {
  refund: 'Refund to my card',
  account_credit: 'Account credit for my next campaign',
};

/**
 * The credit for a shortfall, in cents: round_half_even(priceCents × (promised − delivered) / promised);
 * 0 when the promise was kept (or exceeded). Integer arithmetic: no float rounding on the way.
 */
export function shortfallCreditCents(priceCents: number, promised: number, delivered: number): number {
  if (!Number.isSafeInteger(priceCents) || !Number.isSafeInteger(promised) || !Number.isSafeInteger(delivered) || promised <= 0 || priceCents <= 0) return 0;
  const missing = promised - Math.max(0, delivered);
  if (missing <= 0) return 0;
  const num = BigInt(priceCents) * BigInt(missing);
  const den = BigInt(promised);
  const q = num / den;
  const r = num % den;
  // Round half to even: above half up, below half down, exactly half to the even neighbour.
  const twice = r * 2n;
  const up = twice > den || (twice === den && q % 2n === 1n);
  return Number(up ? q + 1n : q);
}

/** Stripe's smallest charge in USD: a checkout that uses account credit still charges at least this. */
export const MIN_CHARGE_CENTS = 50;

import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';

/**
 * Credits for under-delivery (issue 26). When a campaign delivers fewer impressions than it promised, its
 * settlement credits round_half_even(price_cents × (promised − delivered) / promised): as a partial refund of
 * its payment (the default) or as account credit, applied automatically at the agent's next checkout.
 */
export const CREDIT_METHODS = ['refund', 'account_credit'] as const;
export type CreditMethod = (typeof CREDIT_METHODS)[number];
export const creditMethodSchema = z.enum(CREDIT_METHODS, { error: 'Choose refund or account_credit' });

/** The agent's words for the two methods (dashboard, emails). */
export const CREDIT_METHOD_LABELS: Record<CreditMethod, string> = {
  refund: 'Refund to my card',
  account_credit: 'Account credit for my next campaign',
};

/** PUT /api/agents/{id}/credits/preference. */
export const creditPreferenceSchema = z.object({ method: creditMethodSchema });
export type CreditPreferencePayload = z.infer<typeof creditPreferenceSchema>;

/** One campaign's credit: refunded to the card, or added to the account credit. */
export const campaignCreditSchema = z.object({
  id: z.number().int().positive(),
  campaignId: z.number().int().positive(),
  method: creditMethodSchema,
  amountCents: z.number().int().positive(),
  /** A refund is pending until the payment provider confirms it; account credit succeeds at once. */
  status: z.enum(['pending', 'succeeded', 'failed']),
  promised: z.number().int().positive(),
  delivered: z.number().int().nonnegative(),
  createdAt: isoDateTimeSchema,
  succeededAt: isoDateTimeSchema.nullable(),
});
export type CampaignCredit = z.infer<typeof campaignCreditSchema>;

/** An account-credit ledger entry: a credit granted (+) or spent at a checkout (−). */
export const creditLedgerEntrySchema = z.object({
  id: z.number().int().positive(),
  kind: z.enum(['credit', 'applied']),
  amountCents: z.number().int(),
  /** The campaign whose credit this is (kind credit), or the campaign whose checkout used it (kind applied). */
  campaignId: z.number().int().positive().nullable(),
  createdAt: isoDateTimeSchema,
});
export type CreditLedgerEntry = z.infer<typeof creditLedgerEntrySchema>;

/** GET /api/agents/{id}/credits: refunds and ledger entries, newest first, with the balance. */
export const agentCreditsSchema = z.object({
  balanceCents: z.number().int(),
  preference: creditMethodSchema,
  credits: z.array(campaignCreditSchema),
  ledger: z.array(creditLedgerEntrySchema),
});
export type AgentCredits = z.infer<typeof agentCreditsSchema>;

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

import { z } from 'zod';
import { CREDIT_METHODS } from '../credits.js';
import { isoDateTimeSchema } from './common.js';

/** The agent's credits (issue 26; the rules are ../credits.ts). */

export const creditMethodSchema = z.enum(CREDIT_METHODS);

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

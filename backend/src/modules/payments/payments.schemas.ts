import { z } from 'zod';
import { CARD_MESSAGES } from './test-cards';

/*
 * Request bodies of the local test payments' card form. They belong to the embedded provider, not to
 * the spec's calls, so they live here rather than in contracts. The card checks themselves (Luhn,
 * expiry, CVC, with Stripe's messages) run in test-cards.ts; these only fix the types and sizes.
 */

const clientSecret = z
  .string({ error: 'clientSecret is required' })
  .trim()
  .min(1, { error: 'clientSecret is required' })
  .max(200, { error: 'clientSecret is invalid' });

const monthOrYear = (message: string) =>
  z.union([z.number(), z.string().max(4, { error: message })], { error: message }).transform((v) => String(v));

/** POST /api/payments/local/confirm */
export const localConfirmSchema = z.object({
  clientSecret,
  cardNumber: z.string({ error: CARD_MESSAGES.numberIncomplete }).max(40, { error: CARD_MESSAGES.numberInvalid }),
  expMonth: monthOrYear(CARD_MESSAGES.expiryMonthInvalid),
  expYear: monthOrYear(CARD_MESSAGES.expiryYearInvalid),
  cvc: z.union([z.string(), z.number()], { error: CARD_MESSAGES.cvcIncomplete }).transform((v) => String(v)).pipe(z.string().max(8, { error: CARD_MESSAGES.cvcInvalid })),
});
export type LocalConfirmPayload = z.infer<typeof localConfirmSchema>;

/** POST /api/payments/local/authenticate: the 3-D Secure step, approved or refused by the card holder. */
export const localAuthenticateSchema = z.object({
  clientSecret,
  approve: z.boolean({ error: 'approve must be true or false' }),
});
export type LocalAuthenticatePayload = z.infer<typeof localAuthenticateSchema>;

export type { LocalPaymentAnswer } from '@app/contracts';

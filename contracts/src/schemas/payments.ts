import { z } from 'zod';
import { CARD_MESSAGES } from '../cards.js';
import { idParam } from './common.js';

/** Shown (and the pay button disabled) until the terms checkbox is ticked. */
export const TERMS_REQUIRED_TOAST = {
  title: 'Terms Required',
  description: 'Please agree to the Terms of Service and Privacy Policy to continue.',
} as const;

export const PAYMENT_AMOUNT_MESSAGE = 'Amount must be a positive number';

/**
 * POST /api/create-payment-intent: { amount, campaignId } → { clientSecret }.
 * amount is the budget in dollars as the checkout shows it (a JSON number). The server charges the
 * campaign's own budget and must refuse a mismatch, never charge this figure blindly.
 */
export const createPaymentIntentSchema = z.object({
  amount: z
    .number({ error: PAYMENT_AMOUNT_MESSAGE })
    .positive({ error: PAYMENT_AMOUNT_MESSAGE })
    .max(1_000_000, { error: PAYMENT_AMOUNT_MESSAGE }),
  campaignId: idParam,
});
export type CreatePaymentIntentPayload = z.infer<typeof createPaymentIntentSchema>;

/** POST /api/webhook/payment-success from the success screen: { campaignId }. */
export const paymentSuccessSchema = z.object({ campaignId: idParam });
export type PaymentSuccessPayload = z.infer<typeof paymentSuccessSchema>;

/** Checkout terms checkbox: must be ticked. */
export const checkoutTermsSchema = z.object({
  acceptedTerms: z.literal(true, { error: TERMS_REQUIRED_TOAST.description }),
});

/** POST /api/agents/:id/saved-card/confirm: the SetupIntent the card form confirmed (the server asks the provider). */
export const cardSetupConfirmSchema = z.object({
  setupIntentId: z.string({ error: 'setupIntentId is required' }).trim().min(1, { error: 'setupIntentId is required' }).max(255),
});
export type CardSetupConfirmPayload = z.infer<typeof cardSetupConfirmSchema>;

// ---------------------------------------------------------------- the local test payments' card form

/*
 * Request bodies of the embedded payment provider's card form (the checkout's local payment): sent by the
 * frontend, so declared here like every request. The card checks themselves (Luhn, expiry, CVC, with Stripe's
 * messages) run on the server (backend payments/test-cards.ts); these only fix the types and sizes.
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
export type LocalConfirmInput = z.input<typeof localConfirmSchema>;

/** POST /api/payments/local/authenticate: the 3-D Secure step, approved or refused by the card holder. */
export const localAuthenticateSchema = z.object({
  clientSecret,
  approve: z.boolean({ error: 'approve must be true or false' }),
});
export type LocalAuthenticatePayload = z.infer<typeof localAuthenticateSchema>;
export type LocalAuthenticateInput = z.input<typeof localAuthenticateSchema>;

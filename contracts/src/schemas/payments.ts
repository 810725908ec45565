import { z } from 'zod';
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

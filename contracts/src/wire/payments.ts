import { z } from 'zod';
import { campaignStatusSchema } from './campaigns.js';

/** POST /api/create-payment-intent. */
export const createPaymentIntentResponseSchema = z.object({
  clientSecret: z.string(),
  /** Which provider runs: Stripe Elements in the browser, or the local test card form. */
  provider: z.enum(['stripe', 'local']),
  /** What will be charged, computed by the server from the campaign's budget less any account credit applied. */
  amountCents: z.number().int().positive(),
  /** The agent's account credit this checkout uses (0 when none): budget = amountCents + creditAppliedCents. */
  creditAppliedCents: z.number().int().nonnegative(),
  /** Stripe's publishable key when provider is 'stripe', else null. */
  publishableKey: z.string().nullable(),
});
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponseSchema>;

/** POST /api/webhook/payment-success (the success screen's call). */
export const paymentSuccessResponseSchema = z.object({
  campaignId: z.number().int().positive(),
  status: campaignStatusSchema,
});
export type PaymentSuccessResponse = z.infer<typeof paymentSuccessResponseSchema>;

/** POST /api/payments/local/confirm and /authenticate: the local test card form's outcome. */
export const localPaymentAnswerSchema = z.object({
  status: z.enum(['succeeded', 'requires_action', 'failed']),
  message: z.string(),
});
export type LocalPaymentAnswer = z.infer<typeof localPaymentAnswerSchema>;

/** POST /api/webhooks/stripe: the event was received; what became of it. */
export const stripeWebhookAnswerSchema = z.object({
  received: z.literal(true),
  outcome: z.enum(['processed', 'duplicate', 'ignored']),
});
export type StripeWebhookAnswer = z.infer<typeof stripeWebhookAnswerSchema>;

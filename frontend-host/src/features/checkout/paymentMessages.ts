import { TERMS_REQUIRED_TOAST } from '@app/contracts';

/** Spec 000 §5 and §8: the checkout's messages, word for word. */
export const PAYMENT_TOASTS = {
  termsRequired: TERMS_REQUIRED_TOAST,
  setupError: { title: 'Payment Setup Error', description: 'Failed to set up payment. Please refresh and try again.' },
  failedTitle: 'Payment Failed',
  unexpected: { title: 'Payment Error', description: 'An unexpected error occurred during payment. Please try again.' },
} as const;

/** Shown when the provider gives no message of its own. */
export const GENERIC_DECLINE = 'Your payment could not be completed. Please try another card.';
export const AUTHENTICATION_DECLINED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** The id of a PaymentIntent from its client secret ("pi_123_secret_abc" → "pi_123"). */
export function paymentIntentId(clientSecret: string): string {
  const at = clientSecret.indexOf('_secret_');
  return at > 0 ? clientSecret.slice(0, at) : clientSecret;
}

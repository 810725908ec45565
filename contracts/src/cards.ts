/**
 * Card rules shared by the local test card form (frontend-host checkout) and the local payment
 * provider (backend payments): brands, lengths, the Luhn checksum and Stripe's customer-facing
 * messages (https://docs.stripe.com/testing), so the local provider reads like Stripe Elements.
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

export const CARD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  numberIncorrect: 'Your card number is incorrect.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryMonthInvalid: "Your card's expiration month is invalid.",
  expiryYearInvalid: "Your card's expiration year is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  cvcInvalid: "Your card's security code is invalid.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expiredCard: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  processingError: 'An error occurred while processing your card. Try again in a little bit.',
  authenticationRequired: 'Your bank asks you to confirm this payment with 3D Secure.',
  authenticationFailed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  succeeded: 'Payment succeeded.',
  alreadySucceeded: 'This payment has already succeeded.',
  // Saving a card (a SetupIntent), as Stripe Elements words it.
  cardSaved: 'Your card was saved.',
  setupAuthenticationRequired: 'Your bank asks you to confirm this card with 3D Secure.',
  setupAuthenticationFailed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

/** The brand by the number's leading digits (IIN ranges). */
export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^(36|30[0-5]|3095|38|39)/.test(digits)) return 'diners';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/** How many digits a complete number of this brand has. */
export function cardNumberLength(brand: CardBrand): number {
  if (brand === 'amex') return 15;
  if (brand === 'diners') return 14;
  return 16;
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (d < 0 || d > 9) return false;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Local test payments accept Stripe's test card numbers (https://docs.stripe.com/testing) and answer
 * the way Stripe does: the same outcomes, the same customer-facing messages. Pure functions: no card
 * number leaves this file except as brand + last four digits.
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

export const CARD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  numberIncorrect: 'Your card number is incorrect.',
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
} as const;

export type CardOutcome =
  | { kind: 'succeeded' }
  | { kind: 'declined'; declineCode: string; message: string }
  | { kind: 'requires_action' };

/** Stripe's test numbers and what they do. Any other number that passes the checks is declined. */
const TEST_CARDS: Record<string, CardOutcome> = {
  // Successful payments, one per brand.
  '4242424242424242': { kind: 'succeeded' },
  '4000056655665556': { kind: 'succeeded' },
  '5555555555554444': { kind: 'succeeded' },
  '2223003122003222': { kind: 'succeeded' },
  '5200828282828210': { kind: 'succeeded' },
  '378282246310005': { kind: 'succeeded' },
  '371449635398431': { kind: 'succeeded' },
  '6011111111111117': { kind: 'succeeded' },
  '3056930009020004': { kind: 'succeeded' },
  '3566002020360505': { kind: 'succeeded' },
  '6200000000000005': { kind: 'succeeded' },
  // Declines.
  '4000000000000002': { kind: 'declined', declineCode: 'generic_decline', message: CARD_MESSAGES.declined },
  '4000000000009995': { kind: 'declined', declineCode: 'insufficient_funds', message: CARD_MESSAGES.insufficientFunds },
  '4000000000009987': { kind: 'declined', declineCode: 'lost_card', message: CARD_MESSAGES.declined },
  '4000000000009979': { kind: 'declined', declineCode: 'stolen_card', message: CARD_MESSAGES.declined },
  '4000000000000069': { kind: 'declined', declineCode: 'expired_card', message: CARD_MESSAGES.expiredCard },
  '4000000000000127': { kind: 'declined', declineCode: 'incorrect_cvc', message: CARD_MESSAGES.incorrectCvc },
  '4000000000000119': { kind: 'declined', declineCode: 'processing_error', message: CARD_MESSAGES.processingError },
  // 3D Secure required on every payment.
  '4000002760003184': { kind: 'requires_action' },
  '4000002500003155': { kind: 'requires_action' },
  '4000000000003220': { kind: 'requires_action' },
  '4000000000003063': { kind: 'requires_action' },
};

const GENERIC_DECLINE: CardOutcome = { kind: 'declined', declineCode: 'generic_decline', message: CARD_MESSAGES.declined };

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

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function expectedLength(brand: CardBrand): number {
  if (brand === 'amex') return 15;
  if (brand === 'diners') return 14;
  return 16;
}

export interface CardInput {
  cardNumber: string;
  expMonth: number | string;
  expYear: number | string;
  cvc: string;
}

export interface CheckedCard {
  digits: string;
  brand: CardBrand;
  last4: string;
}

/**
 * Checks a card the way Stripe's card form does. Returns the problems by field (Stripe's
 * messages), or the card's digits, brand and last four.
 */
export function checkCard(input: CardInput, now: Date = new Date()): { ok: true; card: CheckedCard } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const digits = String(input.cardNumber).replace(/[\s-]/g, '');
  const brand = cardBrand(digits);

  if (!/^\d*$/.test(digits)) fields.cardNumber = CARD_MESSAGES.numberInvalid;
  else if (digits.length < Math.min(expectedLength(brand), 13)) fields.cardNumber = CARD_MESSAGES.numberIncomplete;
  else if (digits.length < expectedLength(brand) && brand !== 'unknown') fields.cardNumber = CARD_MESSAGES.numberIncomplete;
  else if (digits.length > 19 || !luhnValid(digits)) fields.cardNumber = CARD_MESSAGES.numberIncorrect;

  const monthText = String(input.expMonth).trim();
  const yearText = String(input.expYear).trim();
  const month = /^\d{1,2}$/.test(monthText) ? Number(monthText) : NaN;
  let year = /^(\d{2}|\d{4})$/.test(yearText) ? Number(yearText) : NaN;
  if (yearText.length === 2) year += 2000;
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (!(month >= 1 && month <= 12)) fields.expMonth = CARD_MESSAGES.expiryMonthInvalid;
  if (!(year >= 2000 && year <= thisYear + 50)) fields.expYear = CARD_MESSAGES.expiryYearInvalid;
  else if (year < thisYear) fields.expYear = CARD_MESSAGES.expiryPast;
  else if (year === thisYear && month >= 1 && month < thisMonth) fields.expMonth = CARD_MESSAGES.expiryPast;

  const cvc = String(input.cvc).trim();
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!/^\d*$/.test(cvc) || cvc.length > cvcLength) fields.cvc = CARD_MESSAGES.cvcInvalid;
  else if (cvc.length < cvcLength) fields.cvc = CARD_MESSAGES.cvcIncomplete;

  if (Object.keys(fields).length) return { ok: false, fields };
  return { ok: true, card: { digits, brand, last4: digits.slice(-4) } };
}

/** What paying with this (valid) card does: Stripe's test numbers, else Stripe's generic decline. */
export function cardOutcome(digits: string): CardOutcome {
  return TEST_CARDS[digits] ?? GENERIC_DECLINE;
}

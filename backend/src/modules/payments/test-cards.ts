/**
 * Local test payments accept Stripe's test card numbers (https://docs.stripe.com/testing) and answer
 * the way Stripe does: the same outcomes, the same customer-facing messages. Pure functions: no card
 * number leaves this file except as brand + last four digits.
 */

import { CARD_MESSAGES, cardBrand, cardNumberLength, luhnValid, type CardBrand } from '@app/contracts';

// The card rules and Stripe's messages are shared with the checkout's card form (contracts/src/cards.ts).
export { CARD_MESSAGES, cardBrand, luhnValid, type CardBrand };

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
  // Saves, then every charge is declined (Stripe: "Decline after attaching").
  '4000000000000341': { kind: 'declined', declineCode: 'card_declined', message: CARD_MESSAGES.declined },
  // 3D Secure required on every payment.
  '4000002760003184': { kind: 'requires_action' },
  '4000002500003155': { kind: 'requires_action' },
  '4000000000003220': { kind: 'requires_action' },
  '4000000000003063': { kind: 'requires_action' },
};

const GENERIC_DECLINE: CardOutcome = { kind: 'declined', declineCode: 'generic_decline', message: CARD_MESSAGES.declined };

/** What charging a saved card with the card holder away does (Stripe's test cards for saved cards). */
export type OffSessionBehaviour = 'succeeded' | 'authentication_required' | 'card_declined';

export type SetupOutcome =
  | { kind: 'succeeded'; offSession: OffSessionBehaviour }
  | { kind: 'requires_action'; offSession: OffSessionBehaviour }
  | { kind: 'declined'; message: string };

/**
 * Saving a card (a SetupIntent with usage off_session), as Stripe does with its test numbers:
 * - the success numbers save, and charge later without the card holder;
 * - 4000 0027 6000 3184 (and 3220, 3063) ask for 3-D Secure on setup and on every later charge;
 * - 4000 0025 0000 3155 asks for 3-D Secure on setup, after which charges without the card holder go through;
 * - 4000 0000 0000 0341 saves, but every charge is declined;
 * - the decline numbers are declined at setup.
 */
const SETUP_CARDS: Record<string, SetupOutcome> = {
  '4000002760003184': { kind: 'requires_action', offSession: 'authentication_required' },
  '4000000000003220': { kind: 'requires_action', offSession: 'authentication_required' },
  '4000000000003063': { kind: 'requires_action', offSession: 'authentication_required' },
  '4000002500003155': { kind: 'requires_action', offSession: 'succeeded' },
  '4000000000000341': { kind: 'succeeded', offSession: 'card_declined' },
};

export function setupOutcome(digits: string): SetupOutcome {
  const special = SETUP_CARDS[digits];
  if (special) return special;
  const payment = cardOutcome(digits);
  if (payment.kind === 'succeeded') return { kind: 'succeeded', offSession: 'succeeded' };
  if (payment.kind === 'declined') return { kind: 'declined', message: payment.message };
  return { kind: 'requires_action', offSession: 'authentication_required' };
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
  else if (digits.length < Math.min(cardNumberLength(brand), 13)) fields.cardNumber = CARD_MESSAGES.numberIncomplete;
  else if (digits.length < cardNumberLength(brand) && brand !== 'unknown') fields.cardNumber = CARD_MESSAGES.numberIncomplete;
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

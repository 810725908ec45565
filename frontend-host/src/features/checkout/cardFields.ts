import { CARD_MESSAGES, cardBrand as brandCode, cardNumberLength, luhnValid, type CardBrand as CardBrandCode } from '@app/contracts';

/**
 * The local card form's input formatting and checks. The rules and Stripe's messages are the ones the
 * local payment provider applies on the server (contracts/src/cards.ts).
 */

export interface CardInput {
  /** As typed and formatted: "4242 4242 4242 4242". */
  number: string;
  /** "MM/YY". */
  expiry: string;
  cvc: string;
}

export type CardField = keyof CardInput;
export type CardErrors = Partial<Record<CardField, string>>;

export const EMPTY_CARD: CardInput = { number: '', expiry: '', cvc: '' };

export { CARD_MESSAGES, luhnValid };

const MAX_CARD_DIGITS = 19;

export const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** "4242424242424242" or "4242 42424" → "4242 4242 4242 4242": digits in groups of 4. */
export function formatCardNumber(value: string): string {
  const digits = digitsOnly(value).slice(0, MAX_CARD_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * "1225" → "12/25". A single month digit above 1 ("4") or one followed by a separator ("1/")
 * becomes "04" / "01", so typing "4" then "27" gives "04/27".
 */
export function formatExpiry(value: string): string {
  const raw = value.trim();
  let digits = digitsOnly(raw);
  if (/^\d[^\d]/.test(raw) || /^[2-9]$/.test(digits.slice(0, 1))) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

export function formatCvc(value: string): string {
  return digitsOnly(value).slice(0, 4);
}

export type CardBrand = 'Visa' | 'Mastercard' | 'American Express' | 'Discover' | null;

const BRAND_LABELS: Partial<Record<CardBrandCode, Exclude<CardBrand, null>>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** The brand shown beside the number (the shared rule in contracts, with display names). */
export function cardBrand(number: string): CardBrand {
  return BRAND_LABELS[brandCode(digitsOnly(number))] ?? null;
}

function expectedLength(number: string): number {
  return cardNumberLength(brandCode(number));
}

export interface ParsedExpiry {
  month: number;
  /** Four digits. */
  year: number;
}

export function parseExpiry(expiry: string): ParsedExpiry | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  if (!match) return null;
  return { month: Number(match[1]), year: 2000 + Number(match[2]) };
}

/** Field messages for what is wrong; an empty object when the card can be sent. */
export function validateCard(card: CardInput, now: Date = new Date()): CardErrors {
  const errors: CardErrors = {};
  const number = digitsOnly(card.number);
  if (number.length < expectedLength(number)) {
    errors.number = CARD_MESSAGES.numberIncomplete;
  } else if (!luhnValid(number)) {
    errors.number = CARD_MESSAGES.numberInvalid;
  }

  const expiry = parseExpiry(card.expiry);
  if (!expiry) {
    errors.expiry = CARD_MESSAGES.expiryIncomplete;
  } else if (expiry.month < 1 || expiry.month > 12) {
    errors.expiry = CARD_MESSAGES.expiryMonthInvalid;
  } else {
    const thisYear = now.getFullYear();
    const thisMonth = now.getMonth() + 1;
    if (expiry.year < thisYear || (expiry.year === thisYear && expiry.month < thisMonth)) {
      errors.expiry = CARD_MESSAGES.expiryPast;
    } else if (expiry.year > thisYear + 50) {
      errors.expiry = CARD_MESSAGES.expiryYearInvalid;
    }
  }

  const cvc = digitsOnly(card.cvc);
  const cvcLength = cardBrand(number) === 'American Express' ? 4 : 3;
  if (cvc.length < cvcLength) errors.cvc = CARD_MESSAGES.cvcIncomplete;

  return errors;
}

/** The server's 400 `fields` (cardNumber, expMonth, expYear, cvc) on the form's three inputs. */
export function cardErrorsFromServer(fields: Record<string, unknown> | null): CardErrors {
  const errors: CardErrors = {};
  if (!fields) return errors;
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
  const number = text('cardNumber');
  const expiry = text('expMonth') ?? text('expYear') ?? text('expiry');
  const cvc = text('cvc');
  if (number) errors.number = number;
  if (expiry) errors.expiry = expiry;
  if (cvc) errors.cvc = cvc;
  return errors;
}

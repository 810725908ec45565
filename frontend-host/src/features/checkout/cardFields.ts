/**
 * The local card form's input formatting and checks. The messages follow Stripe's wording, so the
 * local test provider reads like Stripe Elements.
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

export const CARD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryMonth: "Your card's expiration month is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  expiryYear: "Your card's expiration year is invalid.",
  cvcIncomplete: "Your card's security code is incomplete.",
} as const;

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

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export type CardBrand = 'Visa' | 'Mastercard' | 'American Express' | 'Discover' | null;

export function cardBrand(number: string): CardBrand {
  const d = digitsOnly(number);
  if (/^4/.test(d)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(d)) return 'Mastercard';
  if (/^3[47]/.test(d)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(d)) return 'Discover';
  return null;
}

function expectedLength(number: string): number {
  return cardBrand(number) === 'American Express' ? 15 : 16;
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
    errors.expiry = CARD_MESSAGES.expiryMonth;
  } else {
    const thisYear = now.getFullYear();
    const thisMonth = now.getMonth() + 1;
    if (expiry.year < thisYear || (expiry.year === thisYear && expiry.month < thisMonth)) {
      errors.expiry = CARD_MESSAGES.expiryPast;
    } else if (expiry.year > thisYear + 50) {
      errors.expiry = CARD_MESSAGES.expiryYear;
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

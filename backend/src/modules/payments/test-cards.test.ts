import { CARD_MESSAGES, cardBrand, cardOutcome, checkCard, luhnValid } from './test-cards';

const NOW = new Date('2026-11-23T12:00:00Z');
const card = (cardNumber: string, extra: Partial<{ expMonth: number | string; expYear: number | string; cvc: string }> = {}) => ({
  cardNumber,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  ...extra,
});

describe('Stripe test cards', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['3056930009020004', 'diners'],
    ['3566002020360505', 'jcb'],
    ['6200000000000005', 'unionpay'],
  ])('%s is a valid %s card that succeeds', (digits, brand) => {
    expect(luhnValid(digits)).toBe(true);
    expect(cardBrand(digits)).toBe(brand);
    expect(cardOutcome(digits)).toEqual({ kind: 'succeeded' });
  });

  it('declines 4000 0000 0000 0002 and 4000 0000 0000 9995 with Stripe’s messages', () => {
    expect(cardOutcome('4000000000000002')).toMatchObject({ kind: 'declined', message: 'Your card was declined.' });
    expect(cardOutcome('4000000000009995')).toMatchObject({ kind: 'declined', message: 'Your card has insufficient funds.' });
  });

  it('asks for 3-D Secure with 4000 0027 6000 3184', () => {
    expect(cardOutcome('4000002760003184')).toEqual({ kind: 'requires_action' });
  });

  it('declines any other valid card with the generic message', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(cardOutcome('4111111111111111')).toEqual({ kind: 'declined', declineCode: 'generic_decline', message: 'Your card was declined.' });
  });
});

describe('checkCard', () => {
  it('accepts spaces and dashes in the number and keeps only brand and last four', () => {
    expect(checkCard(card('4242 4242-4242 4242'), NOW)).toEqual({ ok: true, card: { digits: '4242424242424242', brand: 'visa', last4: '4242' } });
  });

  it('gives Stripe’s messages for a wrong number', () => {
    expect(checkCard(card('4242424242424241'), NOW)).toEqual({ ok: false, fields: { cardNumber: CARD_MESSAGES.numberIncorrect } });
    expect(checkCard(card('4242 4242'), NOW)).toEqual({ ok: false, fields: { cardNumber: 'Your card number is incomplete.' } });
    expect(checkCard(card(''), NOW)).toEqual({ ok: false, fields: { cardNumber: 'Your card number is incomplete.' } });
    expect(checkCard(card('4242abcd42424242'), NOW)).toEqual({ ok: false, fields: { cardNumber: 'Your card number is invalid.' } });
  });

  it('refuses an expiry in the past, this month being still valid', () => {
    expect(checkCard(card('4242424242424242', { expMonth: 10, expYear: 2026 }), NOW)).toEqual({
      ok: false,
      fields: { expMonth: "Your card's expiration date is in the past." },
    });
    expect(checkCard(card('4242424242424242', { expMonth: 1, expYear: 2025 }), NOW)).toEqual({
      ok: false,
      fields: { expYear: "Your card's expiration date is in the past." },
    });
    expect(checkCard(card('4242424242424242', { expMonth: 11, expYear: '26' }), NOW).ok).toBe(true);
    expect(checkCard(card('4242424242424242', { expMonth: 13 }), NOW)).toEqual({ ok: false, fields: { expMonth: "Your card's expiration month is invalid." } });
    expect(checkCard(card('4242424242424242', { expYear: 'abc' }), NOW)).toEqual({ ok: false, fields: { expYear: "Your card's expiration year is invalid." } });
  });

  it('wants 3 CVC digits, 4 for American Express', () => {
    expect(checkCard(card('4242424242424242', { cvc: '12' }), NOW)).toEqual({ ok: false, fields: { cvc: "Your card's security code is incomplete." } });
    expect(checkCard(card('4242424242424242', { cvc: '12a' }), NOW)).toEqual({ ok: false, fields: { cvc: "Your card's security code is invalid." } });
    expect(checkCard(card('378282246310005', { cvc: '123' }), NOW)).toEqual({ ok: false, fields: { cvc: "Your card's security code is incomplete." } });
    expect(checkCard(card('378282246310005', { cvc: '1234' }), NOW).ok).toBe(true);
  });

  it('reports every problem at once', () => {
    const res = checkCard({ cardNumber: '1234', expMonth: 0, expYear: 2020, cvc: '' }, NOW);
    expect(res).toEqual({
      ok: false,
      fields: {
        cardNumber: 'Your card number is incomplete.',
        expMonth: "Your card's expiration month is invalid.",
        expYear: "Your card's expiration date is in the past.",
        cvc: "Your card's security code is incomplete.",
      },
    });
  });
});

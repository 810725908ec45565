import { shortfallCreditCents } from './credits';

describe('shortfallCreditCents: round_half_even(price_cents × (promised − delivered) / promised)', () => {
  it('0 delivered: the whole price', () => {
    expect(shortfallCreditCents(29_900, 15_000, 0)).toBe(29_900);
  });
  it('delivered or over-delivered: nothing', () => {
    expect(shortfallCreditCents(29_900, 15_000, 15_000)).toBe(0);
    expect(shortfallCreditCents(29_900, 15_000, 15_731)).toBe(0);
  });
  it('1 impression short: a price’s share of one impression, rounded', () => {
    // 29,900 / 15,000 = 1.9933… → 2 cents.
    expect(shortfallCreditCents(29_900, 15_000, 14_999)).toBe(2);
    // 9,900 / 5,000 = 1.98 → 2 cents.
    expect(shortfallCreditCents(9_900, 5_000, 4_999)).toBe(2);
  });
  it('exact halves go to the even cent, other fractions to the nearest', () => {
    // 9,900 × 1 / 200 = 49.5 → 50 (even); 9,900 × 3 / 200 = 148.5 → 148 (even).
    expect(shortfallCreditCents(9_900, 200, 199)).toBe(50);
    expect(shortfallCreditCents(9_900, 200, 197)).toBe(148);
    // 14,900 × 1 / 4 = 3,725 exactly; 14,900 × 7,001 / 20,000 = 5,215.745 → 5,216; 99,900 × 1 / 40,000 = 2.4975 → 2.
    expect(shortfallCreditCents(14_900, 4, 3)).toBe(3_725);
    expect(shortfallCreditCents(14_900, 20_000, 12_999)).toBe(5_216);
    expect(shortfallCreditCents(99_900, 40_000, 39_999)).toBe(2);
    // 25 × 1 / 10 = 2.5 → 2; 35 × 1 / 10 = 3.5 → 4.
    expect(shortfallCreditCents(25, 10, 9)).toBe(2);
    expect(shortfallCreditCents(35, 10, 9)).toBe(4);
  });
  it('nonsense is no credit', () => {
    expect(shortfallCreditCents(0, 100, 0)).toBe(0);
    expect(shortfallCreditCents(100, 0, 0)).toBe(0);
    expect(shortfallCreditCents(100.5, 100, 0)).toBe(0);
  });
});

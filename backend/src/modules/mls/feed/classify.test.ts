import { classifyChange, phaseOf } from './classify';

describe('phaseOf', () => {
  it.each([
    ['Active', 'active'],
    ['Coming Soon', 'active'],
    ['ComingSoon', 'active'],
    ['Active Under Contract', 'pending'],
    ['Pending', 'pending'],
    ['Closed', 'sold'],
    ['Withdrawn', 'off_market'],
    ['Expired', 'off_market'],
    ['Canceled', 'off_market'],
    ['Delete', 'off_market'],
    ['Incomplete', 'other'],
    [undefined, 'other'],
  ])('StandardStatus %s is %s', (status, phase) => {
    expect(phaseOf({ StandardStatus: status })).toBe(phase);
  });

  it('MlgCanView false is off the market whatever the status says', () => {
    expect(phaseOf({ StandardStatus: 'Active', MlgCanView: false })).toBe('off_market');
    expect(phaseOf({ StandardStatus: 'Active', MlgCanView: true })).toBe('active');
  });
});

describe('classifyChange', () => {
  const s = (phase: Parameters<typeof classifyChange>[1]['phase'], priceCents: number | null = 40_000_000) => ({ phase, priceCents });

  it('a listing first seen on the market is new; first seen sold is a sale; first seen pending or gone is not news', () => {
    expect(classifyChange(null, s('active'))).toEqual(['new']);
    expect(classifyChange(null, s('sold'))).toEqual(['sold']);
    expect(classifyChange(null, s('pending'))).toEqual([]);
    expect(classifyChange(null, s('off_market'))).toEqual([]);
  });

  it('a lower price on an active listing is a price drop; a higher one, or the same, is nothing', () => {
    expect(classifyChange(s('active', 40_000_000), s('active', 38_500_000))).toEqual(['price_drop']);
    expect(classifyChange(s('active', 40_000_000), s('active', 41_000_000))).toEqual([]);
    expect(classifyChange(s('active', 40_000_000), s('active', 40_000_000))).toEqual([]);
    expect(classifyChange(s('pending', 40_000_000), s('pending', 30_000_000))).toEqual([]);
  });

  it('status changes', () => {
    expect(classifyChange(s('active'), s('pending'))).toEqual(['pending']);
    expect(classifyChange(s('pending'), s('sold'))).toEqual(['sold']);
    expect(classifyChange(s('active'), s('sold'))).toEqual(['sold']);
    expect(classifyChange(s('active'), s('off_market'))).toEqual(['withdrawn']);
    expect(classifyChange(s('pending'), s('active'))).toEqual(['back_on_market']);
    expect(classifyChange(s('off_market'), s('active'))).toEqual(['back_on_market']);
    expect(classifyChange(s('sold'), s('active'))).toEqual(['back_on_market']);
    expect(classifyChange(s('other'), s('active'))).toEqual(['new']);
    expect(classifyChange(s('active'), s('other'))).toEqual([]);
  });
});

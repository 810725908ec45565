import {
  SQFT_PER_ACRE,
  bboxParam,
  formatAcres,
  formatCents,
  formatCompact,
  formatPrice,
  formatUsd,
  initials,
  mapBoundingBox,
  pricePerSqft,
  sqftToAcres,
} from './format.js';

describe('formatPrice / formatUsd', () => {
  it('shows whole dollars with thousands separators', () => {
    expect(formatPrice(12500)).toBe('12,500');
    expect(formatPrice('450000.00')).toBe('450,000');
    expect(formatPrice('1250000')).toBe('1,250,000');
    expect(formatPrice(999)).toBe('999');
    expect(formatUsd(12500)).toBe('$12,500');
    expect(formatUsd('2500000.00')).toBe('$2,500,000');
  });
  it('rounds cents away', () => {
    expect(formatPrice(1234.5)).toBe('1,235');
    expect(formatUsd('99.49')).toBe('$99');
  });
  it('returns "" for missing or non-numeric values', () => {
    expect(formatPrice(null)).toBe('');
    expect(formatPrice(undefined)).toBe('');
    expect(formatPrice('abc')).toBe('');
    expect(formatUsd('')).toBe('');
    expect(formatUsd(NaN)).toBe('');
  });
  it('keeps the sign of negative amounts before the dollar sign', () => {
    expect(formatUsd(-1500)).toBe('-$1,500');
  });
});

describe('formatCompact', () => {
  it.each([
    [1200, '1.2K'],
    [3400000, '3.4M'],
    [50000, '50K'],
    [999, '999'],
    [0, '0'],
    [1000, '1K'],
    [1250, '1.3K'],
    [15000, '15K'],
    [1000000, '1M'],
    [1234567, '1.2M'],
    [999999, '1M'],
  ])('%p → %p', (n, s) => expect(formatCompact(n)).toBe(s));
});

describe('acres', () => {
  it('uses 43,560 sq ft per acre', () => {
    expect(SQFT_PER_ACRE).toBe(43560);
    expect(sqftToAcres(43560)).toBe(1);
    expect(sqftToAcres(21780)).toBe(0.5);
    expect(formatAcres(10890)).toBe('0.25');
  });
});

describe('pricePerSqft', () => {
  it('is rounded to whole dollars', () => {
    expect(pricePerSqft('450000', 1500)).toBe(300);
    expect(pricePerSqft(500000, 1501)).toBe(333); // 333.11
    expect(pricePerSqft(1000, 3)).toBe(333);
    expect(pricePerSqft(2000, 3)).toBe(667);
  });
  it('is null when a value is missing', () => {
    expect(pricePerSqft('450000', 0)).toBeNull();
    expect(pricePerSqft(null, 1500)).toBeNull();
    expect(pricePerSqft(450000, undefined)).toBeNull();
  });
});

describe('initials', () => {
  it('takes the first and last word', () => {
    expect(initials('jane q. doe')).toBe('JD');
    expect(initials('  Cher ')).toBe('C');
    expect(initials('')).toBe('');
    expect(initials(null)).toBe('');
  });
});

describe('mapBoundingBox', () => {
  it('spans ±0.01 degrees around the point', () => {
    const box = mapBoundingBox(25.7617, -80.1918);
    expect(box).toEqual({ minLat: 25.7517, minLng: -80.2018, maxLat: 25.7717, maxLng: -80.1818 });
    expect(bboxParam(box)).toBe('-80.2018,25.7517,-80.1818,25.7717');
  });
});

describe('formatCents', () => {
  it('whole dollars without decimals, otherwise to the cent', () => {
    expect(formatCents(29_900)).toBe('$299');
    expect(formatCents(27_653)).toBe('$276.53');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(123_456_789)).toBe('$1,234,567.89');
    expect(formatCents(-990)).toBe('-$9.90');
    expect(formatCents(0)).toBe('$0');
  });
});

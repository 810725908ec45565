import { formatPhone, phoneHref, phoneLink } from './phone.js';

describe('phones', () => {
  it('formats US numbers as (xxx) xxx-xxxx, with an extension', () => {
    expect(formatPhone('3055551234')).toBe('(305) 555-1234');
    expect(formatPhone('+1 408 555 0187 x12')).toBe('(408) 555-0187 ext. 12');
    expect(formatPhone('813-555-0101 ext. 7')).toBe('(813) 555-0101 ext. 7');
  });

  it('dials the extension as an extension, never as more digits of the number', () => {
    expect(phoneHref('+1 408 555 0187 x12')).toBe('tel:+14085550187;ext=12');
    expect(phoneHref('(305) 555-1234')).toBe('tel:+13055551234');
  });

  it('shows other countries internationally, and text that is no number as it is', () => {
    expect(formatPhone('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(phoneHref('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(formatPhone('ask for Dana')).toBe('ask for Dana');
    expect(phoneHref('ask for Dana')).toBeNull();
    expect(phoneLink('  ')).toBeNull();
    expect(phoneLink('4085550187 x12')).toEqual({ display: '(408) 555-0187 ext. 12', href: 'tel:+14085550187;ext=12' });
    expect(phoneLink(' +44 20 7946 0958 ')).toEqual({ display: '+44 20 7946 0958', href: 'tel:+442079460958' });
    expect(phoneLink(' ask for Dana ')).toEqual({ display: 'ask for Dana', href: null });
  });
});

import { DEFAULT_LISTING_STATE, US_STATES, US_STATE_CODES, isUsStateCode, usStateName } from './states.js';

describe('US_STATES', () => {
  it('has exactly the 50 states, unique codes and names', () => {
    expect(US_STATES).toHaveLength(50);
    expect(new Set(US_STATE_CODES).size).toBe(50);
    expect(new Set(US_STATES.map((s) => s.name)).size).toBe(50);
    for (const s of US_STATES) expect(s.code).toMatch(/^[A-Z]{2}$/);
  });
  it('excludes DC and territories', () => {
    expect(isUsStateCode('DC')).toBe(false);
    expect(isUsStateCode('PR')).toBe(false);
  });
  it('knows codes exactly', () => {
    expect(isUsStateCode('FL')).toBe(true);
    expect(isUsStateCode('WY')).toBe(true);
    expect(isUsStateCode('fl')).toBe(false);
    expect(isUsStateCode('Florida')).toBe(false);
    expect(isUsStateCode(undefined)).toBe(false);
    expect(usStateName('NY')).toBe('New York');
    expect(usStateName('XX')).toBeUndefined();
    expect(DEFAULT_LISTING_STATE).toBe('FL');
  });
});

import { countdown } from './countdown';

const at = Date.parse('2026-11-27T12:00:00Z');
const plus = (ms: number) => new Date(at + ms).toISOString();

describe('countdown', () => {
  it('days and hours, hours and minutes, minutes and seconds, seconds, then any moment now', () => {
    expect(countdown(plus(26 * 3_600_000 + 60_000), at)).toBe('in 1 d 2 h');
    expect(countdown(plus(23 * 3_600_000 + 5 * 60_000), at)).toBe('in 23 h 5 min');
    expect(countdown(plus(4 * 60_000 + 10_000), at)).toBe('in 4 min 10 s');
    expect(countdown(plus(9_400), at)).toBe('in 9 s');
    expect(countdown(plus(0), at)).toBe('any moment now');
    expect(countdown(plus(-60_000), at)).toBe('any moment now');
  });
});

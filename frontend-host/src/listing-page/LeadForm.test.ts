import { LEAD_MIN_FILL_MS } from '@app/contracts/rules';
import { holdBeforeSendMs, pageArrivedAt } from './LeadForm';

describe('holding a lead until the minimum fill time has passed', () => {
  it('holds a send for the rest of the minimum fill time since the page arrived, with a small margin', () => {
    expect(holdBeforeSendMs(1_000, 1_500)).toBe(1_000 + LEAD_MIN_FILL_MS + 50 - 1_500);
    expect(holdBeforeSendMs(1_000, 1_000 + LEAD_MIN_FILL_MS)).toBe(50);
  });

  it('does not hold once that time has passed', () => {
    expect(holdBeforeSendMs(1_000, 1_000 + LEAD_MIN_FILL_MS + 50)).toBe(0);
    expect(holdBeforeSendMs(1_000, 60_000)).toBe(0);
  });

  it("counts from the navigation's first byte, or from the time origin without navigation timing", () => {
    const perf = performance as Performance & { getEntriesByType?: (type: string) => unknown[] };
    const original = perf.getEntriesByType;
    try {
      Object.defineProperty(perf, 'getEntriesByType', { configurable: true, value: (type: string) => (type === 'navigation' ? [{ responseStart: 812.5 }] : []) });
      expect(pageArrivedAt()).toBe(812.5);
      Object.defineProperty(perf, 'getEntriesByType', { configurable: true, value: () => [] });
      expect(pageArrivedAt()).toBe(0);
    } finally {
      Object.defineProperty(perf, 'getEntriesByType', { configurable: true, value: original });
    }
  });
});

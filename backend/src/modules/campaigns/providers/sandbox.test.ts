import { deliveredShare, sandboxDelivery } from './sandbox';

const DAY = 86400_000;
const start = new Date('2026-11-01T00:00:00Z');
const c = { id: 'sbx_cmp_0123456789abcdef', impressionsGoal: 20000, startsAt: start, endsAt: new Date(start.getTime() + 21 * DAY) };
const at = (days: number) => sandboxDelivery(c, new Date(start.getTime() + days * DAY));

describe('sandbox delivery', () => {
  it('nothing before the start, everything paid for at the end, and no more after it', () => {
    expect(at(-1)).toEqual({ impressions: 0, reach: 0, clicks: 0 });
    expect(at(0)).toEqual({ impressions: 0, reach: 0, clicks: 0 });
    expect(at(21).impressions).toBe(20000);
    expect(at(40)).toEqual(at(21));
  });

  it('ramps up gently, then accrues linearly with the elapsed time', () => {
    expect(deliveredShare(0.05)).toBeLessThan(0.05);
    expect(deliveredShare(0.5)).toBeCloseTo(0.45 / 0.95, 6);
    // Linear after the ramp: equal time, equal impressions (±1 for rounding).
    const a = at(10.5).impressions - at(7).impressions;
    const b = at(14).impressions - at(10.5).impressions;
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1);
  });

  it('never goes down, keeps reach at 60–70 % and clicks at 0.9–1.5 % of impressions', () => {
    let prev = at(0);
    for (let d = 0.25; d <= 21; d += 0.25) {
      const now = at(d);
      expect(now.impressions).toBeGreaterThanOrEqual(prev.impressions);
      expect(now.reach).toBeGreaterThanOrEqual(prev.reach);
      expect(now.clicks).toBeGreaterThanOrEqual(prev.clicks);
      if (now.impressions >= 1000) {
        expect(now.reach / now.impressions).toBeGreaterThanOrEqual(0.6 - 0.001);
        expect(now.reach / now.impressions).toBeLessThanOrEqual(0.7 + 0.001);
        expect(now.clicks / now.impressions).toBeGreaterThanOrEqual(0.009 - 0.001);
        expect(now.clicks / now.impressions).toBeLessThanOrEqual(0.015 + 0.001);
      }
      prev = now;
    }
  });

  it('is deterministic per campaign and differs between campaigns', () => {
    expect(at(10)).toEqual(at(10));
    const other = sandboxDelivery({ ...c, id: 'sbx_cmp_fedcba9876543210' }, new Date(start.getTime() + 10 * DAY));
    expect(other.impressions).toBe(at(10).impressions);
    expect([other.reach, other.clicks]).not.toEqual([at(10).reach, at(10).clicks]);
  });
});

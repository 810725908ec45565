import { sandboxDeliveryShare, sandboxInsights, type SandboxCampaign } from './sandbox';

const DAY = 86400_000;
const start = new Date('2026-11-01T00:00:00Z');
const c: SandboxCampaign = { id: 'sbx_cmp_0123456789abcdef', impressionsGoal: 20000, startsAt: start, endsAt: new Date(start.getTime() + 21 * DAY), dailyBudgetCents: 2800 };
const on = { timeScale: 1, underdeliveryRate: 0 };
const at = (days: number, opts = on, camp = c) => sandboxInsights(camp, new Date(start.getTime() + days * DAY), opts);

describe('sandbox delivery (Insights-like)', () => {
  it('nothing before the start; the goal is reached a little before the end; nothing after the end', () => {
    expect(at(-1)).toEqual({ lifetime: { impressions: 0, reach: 0, clicks: 0, linkClicks: 0, spendCents: 0 }, days: [] });
    expect(at(21).lifetime.impressions).toBeGreaterThanOrEqual(20000);
    expect(at(21).lifetime.impressions).toBeLessThanOrEqual(20400);
    expect(at(40)).toEqual(at(21));
    expect(at(21).days).toHaveLength(21);
    expect(at(21).days[0].day).toBe('2026-11-01');
    expect(at(21).days[20].day).toBe('2026-11-21');
  });

  it('paces over the flight with daily noise: a slow first day, no day far from the mean', () => {
    const { days } = at(21);
    const mean = 20000 / 21;
    expect(days[0].impressions).toBeLessThan(days[5].impressions);
    for (const d of days.slice(2)) {
      expect(d.impressions).toBeGreaterThan(mean * 0.7);
      expect(d.impressions).toBeLessThan(mean * 1.4);
    }
    expect(new Set(days.slice(2).map((d) => d.impressions)).size).toBeGreaterThan(10);
  });

  it('daily rows add up to the lifetime figures; CTR around 1 %; reach below impressions, frequency 1.4–1.7 at the end', () => {
    const r = at(21);
    expect(r.days.reduce((a, d) => a + d.impressions, 0)).toBe(r.lifetime.impressions);
    expect(r.days.reduce((a, d) => a + d.clicks, 0)).toBe(r.lifetime.clicks);
    const ctr = r.lifetime.clicks / r.lifetime.impressions;
    expect(ctr).toBeGreaterThan(0.005);
    expect(ctr).toBeLessThan(0.016);
    expect(r.lifetime.impressions / r.lifetime.reach).toBeGreaterThanOrEqual(1.4);
    expect(r.lifetime.impressions / r.lifetime.reach).toBeLessThanOrEqual(1.7);
    for (const d of r.days) expect(d.reach).toBeLessThanOrEqual(d.impressions);
  });

  it('never goes down as time passes, and a stop ends delivery', () => {
    let prev = at(0).lifetime;
    for (let d = 0.25; d <= 21; d += 0.25) {
      const now = at(d).lifetime;
      expect(now.impressions).toBeGreaterThanOrEqual(prev.impressions);
      expect(now.clicks).toBeGreaterThanOrEqual(prev.clicks);
      prev = now;
    }
    const stopped = { ...c, stoppedAt: new Date(start.getTime() + 5 * DAY) };
    expect(at(15, on, stopped)).toEqual(at(5));
  });

  it('under-delivers for the share of campaigns SANDBOX_UNDERDELIVERY_RATE says, the same campaigns every time', () => {
    expect(sandboxDeliveryShare(c.id, 0)).toBe(1.02);
    const share = sandboxDeliveryShare(c.id, 1);
    expect(share).toBeGreaterThanOrEqual(0.55);
    expect(share).toBeLessThan(0.95);
    const under = at(21, { timeScale: 1, underdeliveryRate: 1 }).lifetime.impressions;
    expect(under).toBe(Math.floor(20000 * share));
    const ids = Array.from({ length: 400 }, (_, i) => `sbx_cmp_${i.toString(16).padStart(16, '0')}`);
    const rate = ids.filter((id) => sandboxDeliveryShare(id, 0.3) < 1).length / ids.length;
    expect(rate).toBeGreaterThan(0.22);
    expect(rate).toBeLessThan(0.38);
  });

  it('CAMPAIGN_TIME_SCALE: a flight of 21 scaled days has the same 21 calendar rows', () => {
    const scale = 0.001;
    const short = { ...c, endsAt: new Date(start.getTime() + 21 * DAY * scale) };
    const r = sandboxInsights(short, new Date(start.getTime() + 21 * DAY * scale), { timeScale: scale, underdeliveryRate: 0 });
    expect(r.days).toHaveLength(21);
    expect(r).toEqual(at(21));
  });
});

import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AgentCampaign, DailyDelivery } from '@app/contracts';
import styles from './Cards.module.css';

/**
 * Daily impressions and clicks of one campaign as lines (uPlot, in a chunk of its own: only the dashboard
 * loads it, and only once there is delivery to draw). The table beside it is the text alternative.
 */
const DAY = 86_400;

/**
 * The time axis around the days drawn: a day of margin either side and at least a week shown, so one
 * day of delivery is a point on a readable week, not a span uPlot stretches over years.
 */
export function dayRange(xs: number[]): [number, number] {
  if (!xs.length) return [0, 7 * DAY];
  const first = Math.min(...xs);
  const last = Math.max(...xs, first + 6 * DAY);
  return [first - DAY, last + DAY];
}

export default function DeliveryChart({ daily, campaign }: { daily: DailyDelivery[]; campaign: AgentCampaign }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const days = daily.filter((d) => d.campaignId === campaign.id);
    const xs = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    // The theme's colours where the chart is (the dashboard's dark theme is set on its own element, not the page).
    const css = getComputedStyle(el);
    const token = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    const primary = token('--ui-color-primary', 'currentColor');
    const accent = token('--ui-color-success', 'currentColor');
    const text = token('--ui-color-text-muted', token('--ui-color-text', 'currentColor'));
    const grid = token('--ui-color-border', 'rgba(128,128,128,.3)');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const [min, max] = dayRange(xs);
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true, range: () => [min, max] }, clicks: {} },
        axes: [
          { ...axis, space: 60, values: (_u, splits) => splits.map((t) => new Date(t * 1000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })) },
          { ...axis, label: 'Impressions' },
          { ...axis, side: 1, scale: 'clicks', label: 'Clicks', grid: { show: false } },
        ],
        series: [
          {},
          { label: 'Impressions', stroke: primary, width: 2, points: { show: days.length < 2 } },
          { label: 'Clicks', stroke: accent, width: 2, scale: 'clicks', points: { show: days.length < 2 } },
        ],
      },
      [xs, days.map((d) => d.impressions), days.map((d) => d.clicks)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [daily, campaign]);
  return <div ref={host} className={styles.chart} aria-hidden="true" data-testid={`delivery-chart-${campaign.id}`} />;
}

import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { AgentCampaign, DailyDelivery } from '@app/contracts';
import { tokenValue } from '@app/ui';
import styles from './Cards.module.css';

/**
 * Daily impressions and clicks of one campaign as lines (uPlot, in a chunk of its own: only the dashboard
 * loads it, and only once there is delivery to draw). The table beside it is the text alternative.
 */
export default function DeliveryChart({ daily, campaign }: { daily: DailyDelivery[]; campaign: AgentCampaign }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const days = daily.filter((d) => d.campaignId === campaign.id);
    const xs = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const primary = tokenValue('--ui-color-primary', 'currentColor');
    const accent = tokenValue('--ui-color-success', 'currentColor');
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        scales: { x: { time: true }, clicks: {} },
        axes: [{}, { label: 'Impressions' }, { side: 1, scale: 'clicks', label: 'Clicks', grid: { show: false } }],
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

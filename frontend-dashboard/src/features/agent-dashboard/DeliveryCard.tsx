import { lazy, Suspense } from 'react';
import type { AgentCampaign, DailyDelivery } from '@app/contracts';
import { Panel, Spinner } from '@app/ui';
import styles from './Cards.module.css';

/** Daily delivery per campaign, as a table (the chart's text alternative and its fallback). */
export function DeliveryTable({ daily, campaigns }: { daily: DailyDelivery[]; campaigns: AgentCampaign[] }) {
  const label = (id: number) => campaigns.find((c) => c.id === id)?.listing?.address ?? `Campaign ${id}`;
  return (
    <table className={styles.table}>
      <caption className={styles.caption}>Impressions and clicks delivered per day</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Campaign</th>
          <th scope="col">Impressions</th>
          <th scope="col">Clicks</th>
        </tr>
      </thead>
      <tbody>
        {daily.map((d) => (
          <tr key={`${d.campaignId}-${d.day}`}>
            <td>{d.day}</td>
            <td>{label(d.campaignId)}</td>
            <td>{d.impressions.toLocaleString('en-US')}</td>
            <td>{d.clicks.toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const DeliveryChart = lazy(() => import('./DeliveryChart'));

/** The daily delivery of each campaign: a line chart per campaign, and the same figures as a table. */
export function DeliveryCard({ daily, campaigns }: { daily: DailyDelivery[]; campaigns: AgentCampaign[] }) {
  const charted = campaigns.filter((c) => daily.some((d) => d.campaignId === c.id));
  return (
    <Panel title="Daily delivery" aria-label="Daily delivery" className={styles.card}>
      {charted.length === 0 ? (
        <p className={styles.muted}>No delivery yet. Impressions and clicks appear here day by day once your ad is running.</p>
      ) : (
        <>
          {charted.map((c) => (
            <figure key={c.id} className={styles.figure}>
              <figcaption className={styles.muted}>{c.listing?.address ?? `Campaign ${c.id}`}</figcaption>
              <Suspense fallback={<Spinner label="Loading chart..." />}>
                <DeliveryChart daily={daily} campaign={c} />
              </Suspense>
            </figure>
          ))}
          <details className={styles.details}>
            <summary>Show the figures</summary>
            <DeliveryTable daily={daily} campaigns={campaigns} />
          </details>
        </>
      )}
    </Panel>
  );
}

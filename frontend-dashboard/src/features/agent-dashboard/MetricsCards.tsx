import type { ReactNode } from 'react';
import type { AgentCampaign, FacebookMetrics, LeadShown } from '@app/contracts';
import { Badge, Button, EmptyState, Panel } from '@app/ui';
// The zod-free door: the dashboard keeps zod out of its bundle (see store/api.ts).
import { formatCompact, formatUsd, DEFAULT_IMPRESSION_GOAL, engagements, progressLabel, progressPercent } from '@app/contracts/rules';
import styles from './Cards.module.css';

/** Property card (spec §2): the first campaign that has a listing; 'No active campaigns yet' otherwise. */
export function PropertyCard({ campaigns }: { campaigns: AgentCampaign[] }) {
  const campaign = campaigns.find((c) => c.listing);
  const listing = campaign?.listing;
  return (
    <Panel title="Property" aria-label="Property" className={styles.card}>
      {!listing ? (
        <EmptyState title="No active campaigns yet" />
      ) : (
        <div className={styles.property}>
          {(listing.imageUrl ?? campaign.imageUrl) && (
            <img className={styles.propertyImage} src={(listing.imageUrl ?? campaign.imageUrl)!} alt={listing.address} width={320} height={200} loading="lazy" />
          )}
          <p className={styles.price}>{listing.price ? formatUsd(listing.price) : ''}</p>
          <p>
            {listing.address}
            {listing.city ? `, ${listing.city}` : ''}
            {listing.state ? `, ${listing.state}` : ''}
          </p>
          <p className={styles.muted}>
            {[listing.bedrooms != null && `${listing.bedrooms} beds`, listing.bathrooms && `${listing.bathrooms} baths`, listing.squareFeet != null && `${listing.squareFeet.toLocaleString('en-US')} sq ft`]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <p>
            <Badge tone={campaign.status === 'active' ? 'success' : 'neutral'}>{campaign.status === 'active' ? 'Active' : campaign.status.replace('_', ' ')}</Badge>
          </p>
          <Button variant="secondary" onClick={() => window.open(`/listing/${encodeURIComponent(listing.mlsId || String(listing.id))}`, '_blank', 'noopener')}>
            View Property Details
          </Button>
        </div>
      )}
    </Panel>
  );
}

/**
 * One card whose read failed: its title, what went wrong and a Retry, in place of the card (the other cards
 * keep their own content). `label` is the card's region name, as when it loads.
 */
export function CardError({ title, label, what, onRetry, retrying, className }: { title?: string; label: string; what: string; onRetry: () => void; retrying: boolean; className?: string }) {
  return (
    <Panel title={title} aria-label={label} className={className ?? styles.card}>
      <p className={styles.cardError} role="alert">
        {`We couldn't load ${what}.`}
      </p>
      <Button variant="secondary" onClick={onRetry} busy={retrying} disabled={retrying}>
        Retry
      </Button>
    </Panel>
  );
}

/**
 * Campaign Progress: percent of the impression goal, capped at 100 (spec §2, §9). With no metrics (null)
 * the spec's default 75; the goal is 50,000 ("50K") when the metrics carry none.
 */
export function ProgressCard({ metrics }: { metrics: Partial<FacebookMetrics> | null }) {
  const goal = metrics?.impressionGoal && metrics.impressionGoal > 0 ? metrics.impressionGoal : DEFAULT_IMPRESSION_GOAL;
  const percent = progressPercent(metrics?.totalImpressions, goal);
  return (
    <Panel title="Campaign Progress" aria-label="Campaign Progress" className={styles.card}>
      <p className={styles.progressLabel}>{progressLabel(percent)}</p>
      <div className={styles.meter} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Progress to the impression goal">
        <span className={styles.meterFill} style={{ width: `${percent}%` }} />
      </div>
      <p className={styles.muted}>
        <strong>{percent}%</strong>
        {metrics?.totalImpressions != null
          ? ` · ${formatCompact(metrics.totalImpressions)} of ${formatCompact(goal)} impressions`
          : ` · goal ${formatCompact(goal)} impressions`}
      </p>
    </Panel>
  );
}

/** Total Clicks, Total Reach, Engagements (the platform's figure, else the spec's estimate, said as such). No metrics yet: zeros. */
export function StatTiles({ metrics }: { metrics: Partial<FacebookMetrics> | null }) {
  const clicks = metrics?.totalClicks ?? 0;
  const reported = metrics?.engagements != null;
  const tiles = [
    { label: 'Total Clicks', value: formatCompact(clicks), note: null },
    { label: 'Total Reach', value: formatCompact(metrics?.reach ?? 0), note: null },
    { label: 'Engagements', value: formatCompact(reported ? metrics!.engagements! : engagements(clicks)), note: reported ? null : 'estimated' },
  ];
  return (
    <div className={styles.tiles}>
      {tiles.map((t) => (
        <Panel key={t.label} aria-label={t.label} className={styles.tile}>
          <p className={styles.tileLabel}>{t.label}</p>
          <p className={styles.tileValue} data-testid={`tile-${t.label.toLowerCase().replace(' ', '-')}`}>
            {t.value}
          </p>
          {t.note && <p className={styles.muted}>{t.note} (clicks × 1.2)</p>}
        </Panel>
      ))}
    </div>
  );
}

/**
 * 'Your Leads (n)' with Contact, Property and Interest (spec §2). n is all the agent's leads; the table
 * shows the pages read so far, newest first, and "Show more leads" reads the next one.
 */
export function LeadsCard({
  leads,
  total = leads.length,
  more,
  review,
}: {
  leads: LeadShown[];
  total?: number;
  more?: { loading: boolean; load: () => void };
  /** The leads held for review, when there are any (HeldLeads). */
  review?: ReactNode;
}) {
  return (
    <Panel title={`Your Leads (${total})`} aria-label="Your Leads" className={styles.card}>
      {leads.length === 0 ? (
        <p className={styles.muted}>No leads yet. Your leads will appear here once customers start responding to your ads.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Contact</th>
                <th scope="col">Property</th>
                <th scope="col">Interest</th>
              </tr>
            </thead>
            <tbody>
              {leads.map((l) => (
                <tr key={l.id}>
                  <td>
                    <strong>{l.name}</strong>
                    <br />
                    <a href={`mailto:${l.email}`}>{l.email}</a>
                    {l.phoneLink && (
                      <>
                        <br />
                        {l.phoneLink.href ? <a href={l.phoneLink.href}>{l.phoneLink.display}</a> : l.phoneLink.display}
                      </>
                    )}
                  </td>
                  <td>
                    {l.listing.address}
                    <br />
                    <span className={styles.muted}>{formatUsd(l.listing.price)}</span>
                  </td>
                  <td>
                    {l.interest}
                    {l.message && <p className={styles.message}>{l.message}</p>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {more && (
            <div className={styles.more}>
              <Button variant="secondary" onClick={more.load} disabled={more.loading} busy={more.loading}>
                {more.loading ? 'Loading...' : `Show more leads (${leads.length} of ${total} shown)`}
              </Button>
            </div>
          )}
        </div>
      )}
      {review}
    </Panel>
  );
}

// The daily delivery card has a file of its own; the dashboard places it with the other cards.
export { DeliveryCard } from './DeliveryCard';

import type { DeliveryChannel, DeliveryKind, DeliveryStatus, DeliveryView } from '@app/contracts';
import { Badge, Button, Spinner, VisuallyHidden, fieldStyles, type BadgeTone } from '@app/ui';
import { useEffect, useState } from 'react';
import { failureMessage } from '../../store/api';
import { useGetDeliveriesQuery, useReplayDeliveryMutation } from './notificationsApi';
import type { CardToast } from './useCardToast';
import styles from './LeadNotifications.module.css';

const PAGE_SIZE = 10;
/** After a replay, the log is asked again each second until the new attempt shows up (at most this long). */
const REPLAY_WATCH_MS = 15_000;

const CHANNEL_LABEL: Record<DeliveryChannel, string> = { email: 'Email', webhook: 'Webhook', zapier: 'Zapier', crm: 'CRM', hook: 'App (REST hook)', sms: 'Text' };
const KIND_LABEL: Record<DeliveryKind, string> = {
  'lead.created': 'New lead',
  'lead.test': 'Test',
  'lead.digest': 'Daily digest',
  'campaign.live': 'Campaign live',
  'lead.notice': 'Lead notice',
  'endpoint.disabled': 'Endpoint disabled notice',
  'delivery.dead': 'Failed delivery notice',
  'report.mid_flight': 'Halfway report',
  'report.final': 'Final report',
  'autopilot.scheduled': 'Autopilot: ad scheduled',
  'autopilot.card_needed': 'Autopilot: card needed',
  'autopilot.payment_failed': 'Autopilot: payment failed',
  'autopilot.confirm_payment': 'Autopilot: confirm payment',
  'autopilot.delivery_stopped': 'Autopilot: ad paused or stopped',
  'autopilot.resume_offer': 'Autopilot: resume offer',
};
const STATUS: Record<DeliveryStatus, { label: string; tone: BadgeTone }> = {
  succeeded: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'warning' },
  dead: { label: 'Dead', tone: 'danger' },
  disabled: { label: 'Disabled (410)', tone: 'danger' },
};

/**
 * The rows that offer Replay: the server says the delivery may be sent again (a dead or failed attempt of a dead
 * delivery, contracts `isReplayable`; never one still being retried), on the newest of its attempts on the page
 * only, so a delivery is offered once, not on every attempt it made.
 */
export function replayableIds(items: readonly Pick<DeliveryView, 'id' | 'webhookId' | 'attempt' | 'replayable'>[]): Set<number> {
  const newest = new Map<string, number>();
  for (const d of items) newest.set(d.webhookId, Math.max(newest.get(d.webhookId) ?? 0, d.attempt));
  return new Set(items.filter((d) => d.replayable && newest.get(d.webhookId) === d.attempt).map((d) => d.id));
}

/** The toast after a replay, in the agent's words (no internal ids). */
export function replayQueuedToast(channel: DeliveryChannel, attempt: number): { title: string; description: string } {
  return { title: 'Replay queued', description: `The ${CHANNEL_LABEL[channel]} delivery will be sent again now (attempt ${attempt}).` };
}

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

function outcome(d: DeliveryView): string {
  const parts = [d.responseCode !== null ? `HTTP ${d.responseCode}` : null, d.error, d.warning].filter(Boolean);
  if (d.nextAttemptAt) parts.push(`next attempt ${when(d.nextAttemptAt)}`);
  return parts.join(' · ') || '—';
}

/** The delivery log under the settings: every attempt, newest first, with Replay for failed ones. */
export function DeliveryLog({ agentId, toast }: { agentId: string; toast: (t: CardToast) => void }) {
  const [page, setPage] = useState(1);
  const [channel, setChannel] = useState<DeliveryChannel | ''>('');
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [watch, setWatch] = useState<{ webhookId: string; attempt: number; until: number } | null>(null);
  const { data, isLoading, isError, isFetching, refetch } = useGetDeliveriesQuery(
    { agentId, page, pageSize: PAGE_SIZE, channel: channel || undefined, status: status || undefined },
    { pollingInterval: watch ? 1000 : 0 },
  );
  const [replay, { isLoading: replaying, originalArgs }] = useReplayDeliveryMutation();

  useEffect(() => {
    if (!watch || !data) return;
    const arrived = data.items.some((d) => d.webhookId === watch.webhookId && d.attempt >= watch.attempt);
    if (arrived || Date.now() > watch.until) setWatch(null);
  }, [data, watch]);

  const onReplay = async (d: DeliveryView) => {
    try {
      const result = await replay({ agentId, deliveryId: d.id }).unwrap();
      toast({ ...replayQueuedToast(d.channel, result.attempt), tone: 'success' });
      // The new attempt is the newest row: the first page, with the agent's filters kept.
      setPage(1);
      setWatch({ webhookId: result.webhookId, attempt: result.attempt, until: Date.now() + REPLAY_WATCH_MS });
    } catch (error) {
      toast({ title: 'Replay failed', description: failureMessage(error) ?? 'Could not replay this delivery', tone: 'danger' });
    }
  };

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const replayable = replayableIds(data?.items ?? []);

  return (
    <section className={styles.log} aria-labelledby={`${agentId}-deliveries`}>
      <div className={styles.logHeader}>
        <h3 id={`${agentId}-deliveries`} className={styles.logTitle}>
          Delivery log
        </h3>
        <div className={styles.logTools}>
          <VisuallyHidden as="label" htmlFor={`${agentId}-log-channel`}>
            Channel
          </VisuallyHidden>
          <select
            id={`${agentId}-log-channel`}
            className={`${fieldStyles.select} ${styles.filter}`}
            value={channel}
            onChange={(e) => {
              setChannel(e.target.value as DeliveryChannel | '');
              setPage(1);
            }}
          >
            <option value="">All channels</option>
            {(Object.keys(CHANNEL_LABEL) as DeliveryChannel[]).map((c) => (
              <option key={c} value={c}>
                {CHANNEL_LABEL[c]}
              </option>
            ))}
          </select>
          <VisuallyHidden as="label" htmlFor={`${agentId}-log-status`}>
            Status
          </VisuallyHidden>
          <select
            id={`${agentId}-log-status`}
            className={`${fieldStyles.select} ${styles.filter}`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DeliveryStatus | '');
              setPage(1);
            }}
          >
            <option value="">All statuses</option>
            {(Object.keys(STATUS) as DeliveryStatus[]).map((st) => (
              <option key={st} value={st}>
                {STATUS[st].label}
              </option>
            ))}
          </select>
          <Button variant="ghost" onClick={() => void refetch()} disabled={isFetching}>
            Refresh
          </Button>
        </div>
      </div>
      {isLoading ? (
        <Spinner label="Loading deliveries..." />
      ) : isError || !data ? (
        <p className={styles.hint} role="alert">
          Could not load the delivery log.
        </p>
      ) : data.items.length === 0 ? (
        <p className={styles.hint}>
          {channel || status ? 'No deliveries match these filters.' : 'No deliveries yet. Each lead, test and notification email will be listed here.'}
        </p>
      ) : (
        <>
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Last error / answer</th>
                  <th scope="col">
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((d) => (
                  <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
                    <td data-label="Time">{when(d.createdAt)}</td>
                    <td data-label="Channel">
                      {CHANNEL_LABEL[d.channel]}
                      <span className={styles.sub}>{KIND_LABEL[d.kind]}</span>
                      {d.target && <span className={styles.sub}>{d.target}</span>}
                    </td>
                    <td data-label="Status">
                      <Badge tone={STATUS[d.status].tone}>{STATUS[d.status].label}</Badge>
                    </td>
                    <td data-label="Attempt">{d.attempt}</td>
                    <td data-label="Last error / answer" className={styles.outcome}>
                      {outcome(d)}
                    </td>
                    <td className={styles.rowActions}>
                      {replayable.has(d.id) && (
                        <Button
                          variant="secondary"
                          onClick={() => void onReplay(d)}
                          disabled={replaying}
                          busy={replaying && originalArgs?.deliveryId === d.id}
                          aria-label={`Replay ${CHANNEL_LABEL[d.channel]} delivery ${d.id}`}
                        >
                          Replay
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav className={styles.pager} aria-label="Delivery log pages">
              <Button variant="ghost" onClick={() => setPage((p) => p - 1)} disabled={page <= 1}>
                Newer
              </Button>
              <span>
                Page {page} of {pages}
              </span>
              <Button variant="ghost" onClick={() => setPage((p) => p + 1)} disabled={page >= pages}>
                Older
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

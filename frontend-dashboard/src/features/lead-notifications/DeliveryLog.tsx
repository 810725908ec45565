import type { DeliveryChannel, DeliveryStatus, DeliveryView } from '@app/contracts';
import { Button, Spinner, VisuallyHidden, fieldStyles } from '@app/ui';
import { useEffect, useState } from 'react';
import { failureMessage } from '../../store/api';
import { CHANNEL_LABEL, STATUS, replayQueuedToast, replayableIds } from './deliveryLabels';
import { DeliveryTable } from './DeliveryTable';
import { useGetDeliveriesQuery, useReplayDeliveryMutation } from './notificationsApi';
import type { CardToast } from '../card-toast';
import styles from './LeadNotifications.module.css';

const PAGE_SIZE = 10;
/** After a replay, the log is asked again each second until the new attempt shows up (at most this long). */
const REPLAY_WATCH_MS = 15_000;

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
          <DeliveryTable items={data.items} replayable={replayable} replayingId={replaying ? (originalArgs?.deliveryId ?? null) : null} onReplay={(d) => void onReplay(d)} />
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

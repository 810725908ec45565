import type { DeliveryView } from '@app/contracts';
import { Badge, Button, VisuallyHidden } from '@app/ui';
import { CHANNEL_LABEL, KIND_LABEL, STATUS, outcome, when } from './deliveryLabels';
import styles from './LeadNotifications.module.css';

/** The log's page of attempts: when, where, how it went, and Replay where the server allows it. */
export function DeliveryTable({
  items,
  replayable,
  replayingId,
  onReplay,
}: {
  items: readonly DeliveryView[];
  replayable: Set<number>;
  /** The delivery being replayed (every Replay waits meanwhile). */
  replayingId: number | null;
  onReplay: (d: DeliveryView) => void;
}) {
  return (
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
          {items.map((d) => (
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
                    onClick={() => onReplay(d)}
                    disabled={replayingId !== null}
                    busy={replayingId === d.id}
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
  );
}

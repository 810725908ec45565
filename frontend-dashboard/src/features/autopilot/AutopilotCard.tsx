import type { AutopilotRunView, AutopilotView, SavedCard } from '@app/contracts';
// The zod-free door: the contracts barrel carries zod, which the dashboard does not load.
import { AUTOPILOT_KIND_LABELS, AUTOPILOT_MESSAGES, AUTOPILOT_STATUS_LABELS } from '@app/contracts/rules';
import { Alert, Badge, Button, Panel, Spinner, type BadgeTone } from '@app/ui';
import { useEffect, useState } from 'react';
import { failureMessage } from '../../store/api';
import { useCardToast } from '../card-toast';
import { countdown } from './countdown';
import { AutopilotSettingsForm, dollars } from './AutopilotSettingsForm';
import { useActOnRunMutation, useGetAutopilotQuery } from './autopilotApi';
import styles from './Autopilot.module.css';

const TONE: Partial<Record<AutopilotRunView['status'], BadgeTone>> = {
  scheduled: 'primary',
  charging: 'primary',
  launched: 'success',
  resumed: 'success',
  offered: 'primary',
  needs_card: 'warning',
  needs_authentication: 'warning',
  charge_failed: 'danger',
  failed: 'danger',
  paused: 'warning',
  stopped: 'neutral',
  skipped: 'neutral',
  expired: 'neutral',
};

const cardLabel = (card: SavedCard) => `${card.brand[0].toUpperCase()}${card.brand.slice(1)} •••• ${card.last4}`;
const day = (iso: string) => new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A second's tick for the countdowns (only while something is scheduled). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

/**
 * The dashboard's Autopilot card (DESIGN §7): the settings, the saved card, the scheduled drafts with a
 * countdown (Launch now, Skip) and a resume offer, and the history with the reasons.
 */
export function AutopilotCard({ agentId }: { agentId: string }) {
  const view = useGetAutopilotQuery(agentId);
  const { show, view: toastView } = useCardToast();
  let body;
  if (view.isLoading) body = <Spinner label="Loading autopilot..." />;
  else if (view.isError || !view.data) {
    body = (
      <Alert tone="danger" title="Could not load autopilot">
        <Button variant="secondary" onClick={() => void view.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  } else body = <AutopilotBody agentId={agentId} data={view.data} toast={show} />;
  return (
    <Panel title="Autopilot" aria-label="Autopilot" data-testid="autopilot-card" className={styles.card}>
      <p className={styles.intro}>
        Every new listing gets its ad on its own. Before it launches you get an email with the ad and can launch it now, edit it or skip it; nothing is
        charged until then. The ad pauses when the home goes under contract and stops when it sells.
      </p>
      {body}
      {toastView}
    </Panel>
  );
}

function AutopilotBody({ agentId, data, toast }: { agentId: string; data: AutopilotView; toast: ReturnType<typeof useCardToast>['show'] }) {
  const now = useNow(data.scheduled.some((r) => r.status === 'scheduled'));
  const [act, acting] = useActOnRunMutation();
  const run = async (runId: number, action: 'launch' | 'skip' | 'resume') => {
    try {
      const done = await act({ agentId, runId, action }).unwrap();
      toast({ title: action === 'skip' ? 'Skipped' : action === 'resume' ? 'Resumed' : 'Launching', description: done.reason ?? undefined, tone: 'success' });
    } catch (error) {
      toast({ title: 'That did not work', description: failureMessage(error) ?? undefined, tone: 'danger' });
    }
  };
  return (
    <>
      {!data.mlsLinked && <Alert tone="info">{AUTOPILOT_MESSAGES.needsMls}</Alert>}
      <AutopilotSettingsForm agentId={agentId} saved={data.settings} disabled={!data.mlsLinked} toast={toast} />
      <div className={styles.cardLine} data-testid="autopilot-saved-card">
        {data.card ? (
          <>
            <span>
              Card: <strong>{cardLabel(data.card)}</strong>
            </span>
            <a href={`/autopilot-card?agent=${agentId}`}>Replace card</a>
          </>
        ) : (
          <>
            <span>No card saved: ads are drafted and emailed, but need a card to launch.</span>
            <a href={`/autopilot-card?agent=${agentId}`}>Add a card</a>
          </>
        )}
      </div>

      <h3 className={styles.heading}>Scheduled</h3>
      {data.scheduled.length === 0 ? (
        <p className={styles.muted}>Nothing scheduled. New listings show up here with their launch time.</p>
      ) : (
        <ul className={styles.runs} aria-label="Scheduled ads">
          {data.scheduled.map((r) => (
            <li key={r.id} className={styles.run} data-testid="autopilot-scheduled">
              {r.imageUrl && <img className={styles.thumb} src={r.imageUrl} alt="" />}
              <div className={styles.runText}>
                <p className={styles.runTitle}>
                  {AUTOPILOT_KIND_LABELS[r.kind]} · {r.listingAddress ?? r.listingKey}
                </p>
                {r.headline && <p className={styles.muted}>{r.headline}</p>}
                <p className={styles.muted}>
                  <Badge tone={TONE[r.status] ?? 'neutral'}>{AUTOPILOT_STATUS_LABELS[r.status]}</Badge>{' '}
                  {r.status === 'scheduled' && r.launchAt && (
                    <span data-testid="autopilot-countdown">
                      Launches {countdown(r.launchAt, now)} ({day(r.launchAt)}){r.price ? ` · ${dollars(Number(r.price))}` : ''}
                    </span>
                  )}
                  {r.status !== 'scheduled' && r.reason}
                </p>
              </div>
              <div className={styles.runActions}>
                {(r.status === 'scheduled' || r.status === 'needs_card' || r.status === 'charge_failed') && (
                  <>
                    <Button size="md" busy={acting.isLoading && acting.originalArgs?.runId === r.id && acting.originalArgs.action === 'launch'} onClick={() => void run(r.id, 'launch')}>
                      Launch now
                    </Button>
                    <Button size="md" variant="secondary" onClick={() => void run(r.id, 'skip')}>
                      Skip
                    </Button>
                  </>
                )}
                {r.status === 'offered' && (
                  <Button size="md" onClick={() => void run(r.id, 'resume')}>
                    Resume
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}

      <h3 className={styles.heading}>History</h3>
      {data.history.length === 0 ? (
        <p className={styles.muted}>Nothing yet.</p>
      ) : (
        <ul className={styles.runs} aria-label="Autopilot history">
          {data.history.map((r) => (
            <li key={r.id} className={styles.run} data-testid="autopilot-history">
              <div className={styles.runText}>
                <p className={styles.runTitle}>
                  <Badge tone={TONE[r.status] ?? 'neutral'}>{AUTOPILOT_STATUS_LABELS[r.status]}</Badge> {AUTOPILOT_KIND_LABELS[r.kind]} · {r.listingAddress ?? r.listingKey}
                </p>
                <p className={styles.muted}>
                  {day(r.updatedAt)}
                  {r.reason ? ` · ${r.reason}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

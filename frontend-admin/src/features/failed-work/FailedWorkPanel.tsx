import { Button, Card, H4, HTMLTable, Intent, NonIdealState } from '@blueprintjs/core';
import { errorText } from '../../store/api';
import { useAdminToast } from '../toasts/AdminToaster';
import { useFailedWorkQuery, useRetryJobMutation, useRetryLaunchMutation } from '../agents-table/adminAgentsApi';
import styles from './FailedWorkPanel.module.css';

/** Failed launches and failed or dead-lettered jobs, with Retry (the same functions as `npm run ops`; audited). */
export function FailedWorkPanel() {
  const toast = useAdminToast();
  const { data, error, refetch, isFetching } = useFailedWorkQuery();
  const [retryLaunch] = useRetryLaunchMutation();
  const [retryJob] = useRetryJobMutation();

  async function run(action: () => Promise<unknown>, what: string) {
    try {
      await action();
      toast({ title: 'Retry queued', description: what, intent: Intent.SUCCESS });
    } catch (e) {
      toast({ title: 'Retry failed', description: errorText(e), intent: Intent.DANGER });
    }
  }

  const empty = data && data.launches.length === 0 && data.jobs.length === 0;
  return (
    <Card className={styles.card}>
      <div className={styles.head}>
        <H4 className={styles.heading}>Failed work</H4>
        <Button size="small" icon="refresh" loading={isFetching} onClick={() => refetch()}>
          Refresh
        </Button>
      </div>
      {error ? (
        <NonIdealState icon="error" title="Failed to load failed work" description={errorText(error)} />
      ) : empty ? (
        <p className={styles.muted}>Nothing failed.</p>
      ) : (
        <HTMLTable compact className={styles.table}>
          <thead>
            <tr>
              <th>Kind</th>
              <th>What</th>
              <th>Error</th>
              <th>When</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.launches.map((l) => (
              <tr key={`launch-${l.campaignId}`}>
                <td>Launch</td>
                <td>
                  Campaign #{l.campaignId} {l.headline ? `(${l.headline})` : ''} · agent #{l.agentId} · {l.attempts} attempts
                </td>
                <td className={styles.error}>{l.error ?? '—'}</td>
                <td>{new Date(l.failedAt).toLocaleString('en-US')}</td>
                <td>
                  <Button size="small" intent={Intent.PRIMARY} onClick={() => run(() => retryLaunch(l.campaignId).unwrap(), `Campaign #${l.campaignId} is launching again`)}>
                    Retry
                  </Button>
                </td>
              </tr>
            ))}
            {data?.jobs.map((j) => (
              <tr key={`job-${j.id}`}>
                <td>{j.sourceQueue ? 'Dead letter' : 'Job'}</td>
                <td>
                  {j.sourceQueue ?? j.queue} · {j.retryCount} retries
                </td>
                <td className={styles.error}>{j.error ?? '—'}</td>
                <td>{new Date(j.at).toLocaleString('en-US')}</td>
                <td>
                  <Button size="small" intent={Intent.PRIMARY} onClick={() => run(() => retryJob({ queue: j.queue, id: j.id }).unwrap(), `Job ${j.id} is queued again`)}>
                    Retry
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

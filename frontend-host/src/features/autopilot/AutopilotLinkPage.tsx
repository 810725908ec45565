import { AUTOPILOT_KIND_LABELS, formatUsd, type AutopilotLinkAction, type AutopilotRunView } from '@app/contracts';
import { Link, useParams } from 'react-router-dom';
import { buttonStyles as buttons, fieldStyles, Spinner } from '@app/ui';
import { PageShell } from '../../components/PageShell';
import { isApiError } from '../../store/api';
import styles from './Autopilot.module.css';
import { useGetAutopilotLinkQuery, useUseAutopilotLinkMutation } from './autopilotApi';

const ACTION: Record<AutopilotLinkAction, { title: string; button: string; explain: string }> = {
  launch: { title: 'Launch your ad now?', button: 'Launch now', explain: 'Your saved card is charged now and the ad launches right away, instead of at the scheduled time.' },
  skip: { title: 'Skip this ad?', button: 'Skip this ad', explain: 'This ad will not run and nothing is charged.' },
  edit: { title: 'Edit your ad', button: 'Open the editor', explain: 'Change the ad before it launches. It still launches at the scheduled time unless you skip it.' },
  card: { title: 'Add a card', button: 'Add a card', explain: 'Save the card autopilot charges when your ad launches.' },
  confirm: { title: 'Confirm the payment', button: 'Confirm the payment', explain: 'Your bank asks you to confirm this payment. The ad launches once it is confirmed.' },
  resume: { title: 'Resume your ad?', button: 'Resume the ad', explain: 'The home is back on the market: your paused ad runs again, at no extra charge.' },
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }) : null);

function RunSummary({ run }: { run: AutopilotRunView }) {
  return (
    <div className={styles.summary} data-testid="autopilot-link-run">
      {run.imageUrl && <img className={styles.photo} src={run.imageUrl} alt="" />}
      <div>
        <p className={styles.kind}>{AUTOPILOT_KIND_LABELS[run.kind]}</p>
        {run.headline && <p className={styles.headline}>{run.headline}</p>}
        {run.listingAddress && <p className={styles.muted}>{run.listingAddress}</p>}
        <p className={styles.muted}>
          {run.price && `Budget ${formatUsd(Number(run.price))}`}
          {run.launchAt && run.status === 'scheduled' && ` · launches ${when(run.launchAt)}`}
        </p>
      </div>
    </div>
  );
}

/**
 * `/autopilot/:token`, a link from an autopilot email. Opening it changes nothing (mail scanners follow links);
 * the button does what the link says, once. No login: the signed link is the authority.
 */
export default function AutopilotLinkPage() {
  const { token = '' } = useParams();
  const view = useGetAutopilotLinkQuery(token, { skip: !token });
  const [use, used] = useUseAutopilotLinkMutation();

  if (view.isLoading) return <Spinner fullPage label="Loading..." />;
  if (view.error || !view.data) {
    const message = isApiError(view.error) ? view.error.serverMessage : null;
    return (
      <PageShell title="This link cannot be used">
        <p className={styles.text}>{message ?? 'This link is not valid.'}</p>
        <Link className={buttons.primary} to="/dashboard">
          Go to Dashboard
        </Link>
      </PageShell>
    );
  }
  const { action, usable, message, run } = view.data;
  const copy = ACTION[action];

  if (used.data) {
    if (used.data.redirect) window.location.assign(used.data.redirect);
    return (
      <PageShell title={copy.title}>
        <p className={styles.text} role="status">
          {used.data.message}
        </p>
        <RunSummary run={used.data.run} />
        {used.data.run.reason && <p className={styles.muted}>{used.data.run.reason}</p>}
        {!used.data.redirect && (
          <Link className={buttons.primary} to="/dashboard">
            Go to Dashboard
          </Link>
        )}
      </PageShell>
    );
  }

  const failure = isApiError(used.error) ? used.error.serverMessage : used.error ? 'Something went wrong. Please try again.' : null;
  return (
    <PageShell title={copy.title}>
      {run && <RunSummary run={run} />}
      {usable ? (
        <>
          <p className={styles.text}>{copy.explain}</p>
          {failure && (
            <p className={fieldStyles.fieldError} role="alert">
              {failure}
            </p>
          )}
          <div className={styles.actions}>
            <button type="button" className={action === 'skip' ? buttons.secondary : buttons.primary} disabled={used.isLoading} onClick={() => void use(token)}>
              {used.isLoading ? 'One moment...' : copy.button}
            </button>
            <Link to="/dashboard">Go to Dashboard</Link>
          </div>
        </>
      ) : (
        <>
          <p className={styles.text}>{message}</p>
          <Link className={buttons.primary} to="/dashboard">
            Go to Dashboard
          </Link>
        </>
      )}
    </PageShell>
  );
}

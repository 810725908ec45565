import { panelStyles as panels } from '@app/ui';
import type { Campaign, CampaignStatus } from '../checkout/campaignTypes';
import styles from './Success.module.css';

/** Statuses after which the launch has an outcome: polling stops. */
const SETTLED: ReadonlySet<CampaignStatus> = new Set(['active', 'paused', 'launch_failed', 'completed', 'canceled']);

export function isLaunchSettled(status: CampaignStatus): boolean {
  return SETTLED.has(status);
}

type Tone = 'progress' | 'live' | 'problem' | 'neutral';

interface View {
  tone: Tone;
  label: string;
  detail: string;
}

function viewFor(campaign: Campaign, reportPending: boolean, reportFailed: boolean, timedOut: boolean): View {
  switch (campaign.status) {
    case 'active':
      return { tone: 'live', label: 'Live', detail: 'Your ad is running on Facebook and Instagram.' };
    case 'paused':
      return { tone: 'neutral', label: 'Paused', detail: 'Your ad is paused while the home is under contract or off the market.' };
    case 'completed':
      return { tone: 'neutral', label: 'Completed', detail: 'Your campaign has delivered its impressions.' };
    case 'canceled':
      return { tone: 'problem', label: 'Canceled', detail: 'This campaign was canceled and will not run.' };
    case 'launch_failed':
      return {
        tone: 'problem',
        label: 'Launch problem',
        detail:
          "Facebook hasn't accepted your ad yet. Your payment is safe: our team has been alerted and will get it running. Contact support if you have questions.",
      };
    default:
      break;
  }
  if (reportFailed && (campaign.status === 'draft' || campaign.status === 'pending_payment')) {
    return {
      tone: 'problem',
      label: 'Needs attention',
      detail: 'We could not start your campaign automatically. Please contact support and we will launch it for you.',
    };
  }
  if (timedOut) {
    return {
      tone: 'progress',
      label: 'Still launching',
      detail:
        'This is taking longer than usual. You can close this page: your campaign keeps launching, and your Agent Dashboard shows its status.',
    };
  }
  if (reportPending && (campaign.status === 'draft' || campaign.status === 'pending_payment')) {
    return { tone: 'progress', label: 'Confirming payment…', detail: 'Checking your payment with the payment provider.' };
  }
  return {
    tone: 'progress',
    label: 'Launching…',
    detail: 'Creating your campaign on Facebook. This usually takes less than a minute.',
  };
}

/** The campaign's live status, refreshed by the success screen's polling. */
export function LaunchStatus({
  campaign,
  reportPending,
  reportFailed,
  timedOut,
}: {
  campaign: Campaign;
  reportPending: boolean;
  reportFailed: boolean;
  timedOut: boolean;
}) {
  const view = viewFor(campaign, reportPending, reportFailed, timedOut);
  return (
    <section className={panels.panel} aria-labelledby="launch-status-title">
      <h2 id="launch-status-title" className={styles.cardTitle}>
        Campaign status
      </h2>
      <div className={styles.status} data-tone={view.tone} role="status" aria-live="polite" data-testid="launch-status">
        <span className={styles.statusDot} aria-hidden="true" />
        <div>
          <p className={styles.statusLabel}>{view.label}</p>
          <p className={styles.statusDetail}>{view.detail}</p>
          {campaign.status === 'launch_failed' && campaign.launchError && (
            <p className={styles.statusReason}>Reason: {campaign.launchError}</p>
          )}
          {campaign.status === 'active' && campaign.facebookCampaignId && (
            <p className={styles.statusReason}>
              Facebook campaign ID: <span className={styles.mono}>{campaign.facebookCampaignId}</span>
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

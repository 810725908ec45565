import { listingPagePath } from '@app/contracts';
import { Link } from 'react-router-dom';
import { buttonStyles as buttons, EmptyState, panelStyles as panels } from '@app/ui';
import { AlertIcon, ChartIcon, CheckIcon, ExternalIcon, PlusIcon } from '../../components/Icons';
import { campaignImpressions, type Campaign } from '../checkout/campaignTypes';
import { AccountSetupDialog } from './AccountSetupDialog';
import { LaunchStatus } from './LaunchStatus';
import { OrderDetails, WhatsNext } from './CampaignDetails';
import styles from './Success.module.css';
import { SUCCESS_TEXT } from './successMessages';
import { useDashboardAccess } from './useDashboardAccess';

interface PaidCampaignProps {
  campaign: Campaign;
  listingIdParam: string | null;
  paymentReference: string | null;
  reportPending: boolean;
  reportFailed: boolean;
  notPaid: boolean;
  timedOut: boolean;
}

/** The paid campaign: the news, its launch, the order, what happens next, and the way to the dashboard. */
export function PaidCampaign({ campaign, listingIdParam, paymentReference, reportPending, reportFailed, notPaid, timedOut }: PaidCampaignProps) {
  const agentId = campaign.agentId;
  const { agent, dialog, setDialog, linkSentTo, setLinkSentTo, openDashboard, dashboardBusy } = useDashboardAccess(agentId, reportPending);
  const impressions = campaignImpressions(campaign);
  // Spec 001 says /listing/{mlsId} and "listingId from the query, otherwise from the campaign":
  // the mlsId is used when the campaign read carries it, else the listing id.
  const mlsId = campaign.listingMlsId || null;
  const listingHref = mlsId
    ? listingPagePath(mlsId)
    : `/listing/${encodeURIComponent(listingIdParam || String(campaign.listingId))}`;

  if (notPaid) {
    return (
      <EmptyState
        tone="warning"
        icon={<AlertIcon />}
        title="Payment Not Confirmed"
        actions={
          <Link to={`/checkout/${campaign.id}`} className={buttons.primary}>
            Return to checkout
          </Link>
        }
      >
        <p>
          The payment provider has not confirmed a payment for this campaign, so it has not been launched. If you were
          charged, please contact support.
        </p>
      </EmptyState>
    );
  }

  return (
    <div className={styles.layout}>
      <section className={styles.hero} aria-labelledby="success-title">
        <div className={styles.heroIcon} aria-hidden="true">
          <CheckIcon width={34} height={34} strokeWidth={2.6} />
        </div>
        <h1 id="success-title" className={styles.title}>
          {SUCCESS_TEXT.title}
        </h1>
        <p className={styles.subtitle}>{SUCCESS_TEXT.subtitle}</p>
        <div className={styles.actions}>
          <a href={listingHref} target="_blank" rel="noopener noreferrer" className={buttons.primary}>
            <ExternalIcon width={18} height={18} /> View Property Page
          </a>
          {agentId && (
            <button
              type="button"
              className={buttons.secondary}
              onClick={() => void openDashboard()}
              disabled={dashboardBusy}
              aria-busy={dashboardBusy || undefined}
            >
              <ChartIcon width={18} height={18} /> Agent Dashboard
            </button>
          )}
          <a href="/" target="_blank" rel="noopener noreferrer" className={buttons.secondary}>
            <PlusIcon width={18} height={18} /> Create Another Campaign
          </a>
        </div>
      </section>

      <div className={styles.grid}>
        <div className={styles.column}>
          <LaunchStatus campaign={campaign} reportPending={reportPending} reportFailed={reportFailed} timedOut={timedOut} />

          <OrderDetails campaign={campaign} impressions={impressions} paymentReference={paymentReference} />
        </div>

        <section className={panels.panel} aria-labelledby="whats-next-title">
          <WhatsNext impressions={impressions} />
          {agentId && (
            <button
              type="button"
              className={`${buttons.primary} ${buttons.block}`}
              onClick={() => void openDashboard()}
              disabled={dashboardBusy}
              aria-busy={dashboardBusy || undefined}
            >
              Go to Dashboard
            </button>
          )}
        </section>
      </div>

      {agentId && agent.data && (
        <AccountSetupDialog
          key={`${agent.data.id}-${dialog ?? 'closed'}`}
          open={dialog !== null}
          mode={dialog ?? 'setup'}
          agentId={agentId}
          defaultEmail={agent.data.email}
          sentTo={linkSentTo}
          onSent={setLinkSentTo}
          onChangeEmail={() => setLinkSentTo(null)}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

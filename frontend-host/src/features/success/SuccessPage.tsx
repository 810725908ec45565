import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonStyles as buttons, EmptyState, PageLayout, Spinner, VisuallyHidden } from '@app/ui';
import { AlertIcon } from '../../components/Icons';
import { useDocumentTitle } from '../../components/PageShell';
import { SiteHeader } from '../../components/SiteHeader';
import { isApiError } from '../../store/api';
import { parseCampaignId } from '../checkout/campaignTypes';
import { useGetPaymentCampaignQuery } from '../checkout/checkoutApi';
import { useToast } from '../toast/useToast';
import { isLaunchSettled } from './LaunchStatus';
import { PaidCampaign } from './PaidCampaign';
import styles from './Success.module.css';
import { useReportPaymentSuccessMutation } from './successApi';
import { SUCCESS_TEXT, SUCCESS_TOASTS } from './successMessages';
import { CampaignNotFound, isOtherBrowserRefusal } from '../../components/CampaignNotFound';

/** Spec 000 §9 has no figure for this; ~2 s keeps the launch feeling live without hammering the API. */
const POLL_INTERVAL_MS = 2000;
/** After this long the screen stops polling and says the launch is taking longer than usual. */
const POLL_LIMIT_MS = 3 * 60 * 1000;

/**
 * Campaigns this page view has reported to POST /api/webhook/payment-success. Module state, so
 * StrictMode's second mount (or a re-render) cannot report twice; a reload reports again, which
 * the server treats idempotently.
 */
const reportedCampaigns = new Set<number>();

/** Statuses that only a confirmed payment leads to. */
function isPaidStatus(status: string): boolean {
  return status === 'paid' || status === 'launching' || status === 'active' || status === 'completed' || status === 'launch_failed';
}

/** `/success?campaignId=…` and `/?payment=success&campaignId=…&listingId=…` (the payment provider's return). */
export default function SuccessPage() {
  useDocumentTitle(SUCCESS_TEXT.title);
  const [params] = useSearchParams();
  const campaignId = parseCampaignId(params.get('campaignId'));
  const redirectStatus = params.get('redirect_status');

  let content;
  if (campaignId === null) {
    content = <CampaignNotFound />;
  } else if (redirectStatus && redirectStatus !== 'succeeded') {
    content = (
      <EmptyState
        tone="warning"
        icon={<AlertIcon />}
        title="Payment not completed"
        actions={
          <Link to={`/checkout/${campaignId}`} className={buttons.primary}>
            Return to checkout
          </Link>
        }
      >
        <p>Your payment was not completed, so your campaign has not been launched. No charge was made.</p>
      </EmptyState>
    );
  } else {
    content = (
      <CampaignSuccess
        campaignId={campaignId}
        listingIdParam={params.get('listingId')}
        paymentReference={params.get('payment_intent')}
      />
    );
  }

  return (
    <PageLayout header={<SiteHeader />} glow="success" mainClassName={styles.main}>
      {content}
    </PageLayout>
  );
}


interface CampaignSuccessProps {
  campaignId: number;
  listingIdParam: string | null;
  paymentReference: string | null;
}

function CampaignSuccess({ campaignId, listingIdParam, paymentReference }: CampaignSuccessProps) {
  const { toast } = useToast();
  const [report, reportState] = useReportPaymentSuccessMutation({ fixedCacheKey: `payment-success-${campaignId}` });
  const notPaid = isApiError(reportState.error) && reportState.error.status === 402;
  const [settled, setSettled] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const polling = !settled && !timedOut && !notPaid;
  const campaign = useGetPaymentCampaignQuery(campaignId, { pollingInterval: polling ? POLL_INTERVAL_MS : 0 });
  const status = campaign.data?.status;
  const refetchCampaign = campaign.refetch;

  useEffect(() => {
    if (status && isLaunchSettled(status)) setSettled(true);
  }, [status]);

  useEffect(() => {
    const timer = window.setTimeout(() => setTimedOut(true), POLL_LIMIT_MS);
    return () => window.clearTimeout(timer);
  }, []);

  // Spec 000 §4: the success screen reads the campaign, then triggers its creation (once).
  const loaded = !!campaign.data;
  useEffect(() => {
    if (!loaded || reportedCampaigns.has(campaignId)) return;
    reportedCampaigns.add(campaignId);
    void report({ campaignId }).then(async (result) => {
      if (!result.error) return toast(SUCCESS_TOASTS.campaignCreated);
      // The call failed, but the payment may have been confirmed anyway (the provider's webhook): the
      // campaign's real state decides, so the screen never says "Campaign Issue" beside "Live".
      const fresh = await refetchCampaign();
      if (fresh.data && isPaidStatus(fresh.data.status)) toast(SUCCESS_TOASTS.campaignCreated);
      else toast({ ...SUCCESS_TOASTS.campaignIssue, variant: 'destructive' });
    });
  }, [loaded, campaignId, report, toast, refetchCampaign]);

  if (campaign.isLoading) {
    return (
      <>
        {/* The screen has its title while it loads too (the spinner's label says what is happening). */}
        <VisuallyHidden as="h1">Your campaign</VisuallyHidden>
        <Spinner fullPage label="Loading your campaign..." />
      </>
    );
  }
  if (!campaign.data) {
    const clientError = isApiError(campaign.error) && typeof campaign.error.status === 'number' && campaign.error.status < 500;
    if (clientError) return <CampaignNotFound otherBrowser={isOtherBrowserRefusal(campaign.error)} />;
    return (
      <EmptyState
        tone="warning"
        icon={<AlertIcon />}
        title="We couldn't load your campaign"
        actions={
          <button type="button" className={buttons.primary} onClick={() => void campaign.refetch()}>
            Try again
          </button>
        }
      >
        <p>Your payment is safe. Please check your connection and try again.</p>
      </EmptyState>
    );
  }

  return (
    <PaidCampaign
      campaign={campaign.data}
      listingIdParam={listingIdParam}
      paymentReference={paymentReference}
      reportPending={reportState.isUninitialized || reportState.isLoading}
      reportFailed={reportState.isError && !isPaidStatus(campaign.data.status)}
      notPaid={notPaid}
      timedOut={timedOut && !settled}
    />
  );
}

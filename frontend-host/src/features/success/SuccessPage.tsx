import { EMAIL_VERIFICATION_TTL_MINUTES, formatUsd, listingPagePath, timeframeForImpressions } from '@app/contracts';
import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonStyles as buttons, EmptyState, panelStyles as panels, Spinner, VisuallyHidden } from '@app/ui';
import { AlertIcon, ChartIcon, CheckIcon, ExternalIcon, PlusIcon } from '../../components/Icons';
import { useDocumentTitle } from '../../components/PageShell';
import { SiteHeader } from '../../components/SiteHeader';
import { isApiError } from '../../store/api';
import { campaignImpressions, formatImpressions, parseCampaignId, type Campaign } from '../checkout/campaignTypes';
import { useGetPaymentCampaignQuery } from '../checkout/checkoutApi';
import { useToast } from '../toast/useToast';
import { AccountSetupDialog } from './AccountSetupDialog';
import { LaunchStatus, isLaunchSettled } from './LaunchStatus';
import styles from './Success.module.css';
import { useGetAccountAgentQuery, useLazyGetAccountAgentQuery, useReportPaymentSuccessMutation } from './successApi';
import { SUCCESS_TEXT, SUCCESS_TOASTS } from './successMessages';
import { CampaignNotFound, isOtherBrowserRefusal } from '../../components/CampaignNotFound';
import { useAuthMePolling } from '../auth/authApi';

/** Spec 000 §9 has no figure for this; ~2 s keeps the launch feeling live without hammering the API. */
const POLL_INTERVAL_MS = 2000;
/** After this long the screen stops polling and says the launch is taking longer than usual. */
const POLL_LIMIT_MS = 3 * 60 * 1000;
/** Lets the success message land before the account setup dialog covers it. */
const ACCOUNT_PROMPT_DELAY_MS = 1200;

/**
 * Campaigns this page view has reported to POST /api/webhook/payment-success. Module state, so
 * StrictMode's second mount (or a re-render) cannot report twice; a reload reports again, which
 * the server treats idempotently.
 */
const reportedCampaigns = new Set<number>();
/** Agents already shown the account setup prompt, when sessionStorage is unavailable. */
const promptedAgents = new Set<number>();

function promptedKey(agentId: number) {
  return `account-setup-prompted:${agentId}`;
}

function wasPrompted(agentId: number): boolean {
  try {
    return promptedAgents.has(agentId) || sessionStorage.getItem(promptedKey(agentId)) === '1';
  } catch {
    return promptedAgents.has(agentId);
  }
}

function markPrompted(agentId: number): void {
  promptedAgents.add(agentId);
  try {
    sessionStorage.setItem(promptedKey(agentId), '1');
  } catch {
    // private mode: the in-memory set is enough for this page view
  }
}

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
    <div className={styles.screen}>
      <SiteHeader />
      <main className={styles.main}>{content}</main>
    </div>
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

interface PaidCampaignProps {
  campaign: Campaign;
  listingIdParam: string | null;
  paymentReference: string | null;
  reportPending: boolean;
  reportFailed: boolean;
  notPaid: boolean;
  timedOut: boolean;
}

function PaidCampaign({ campaign, listingIdParam, paymentReference, reportPending, reportFailed, notPaid, timedOut }: PaidCampaignProps) {
  const { toast } = useToast();
  const agentId = campaign.agentId;
  const agent = useGetAccountAgentQuery(agentId ?? 0, { skip: !agentId });
  const [loadAgent, loadingAgent] = useLazyGetAccountAgentQuery();
  const [dialog, setDialog] = useState<'setup' | 'sign-in' | null>(null);
  /** Where the emailed link went: from then on the screen watches for this browser being signed in. */
  const [linkSentTo, setLinkSentTo] = useState<string | null>(null);
  const me = useAuthMePolling(!!linkSentTo);
  // Signed in as the agent already (the agent read says so), or since a link was opened in this browser.
  const signedInHere = !!agentId && (agent.data?.access === 'signed_in' || me.data?.id === agentId);

  const impressions = campaignImpressions(campaign);
  // Spec 001 says /listing/{mlsId} and "listingId from the query, otherwise from the campaign":
  // the mlsId is used when the campaign read carries it, else the listing id.
  const mlsId = campaign.listingMlsId || null;
  const listingHref = mlsId
    ? listingPagePath(mlsId)
    : `/listing/${encodeURIComponent(listingIdParam || String(campaign.listingId))}`;

  // Spec 000 §2: the account setup dialog is shown on the success screen, once, for an agent nobody has set up yet.
  const reportSettled = !reportPending;
  const promptAgent = agent.data && !agent.data.verified && !signedInHere ? agent.data.id : null;
  useEffect(() => {
    if (promptAgent === null || !reportSettled || wasPrompted(promptAgent)) return;
    const timer = window.setTimeout(() => {
      markPrompted(promptAgent);
      setDialog('setup');
    }, ACCOUNT_PROMPT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [promptAgent, reportSettled]);

  // Spec 001 §2: on success /dashboard?agent={id} opens in a new tab.
  const openDashboardTab = useCallback(
    (done: { title: string; description: string }) => {
      const url = `/dashboard?agent=${agentId}`;
      const opened = window.open(url, '_blank');
      if (opened) {
        opened.opener = null;
        toast(done);
      } else {
        // A blocked pop-up: the same news, with a button that opens the dashboard from a fresh click.
        toast({
          title: done.title,
          description: 'Your Agent Dashboard is ready.',
          action: { label: 'Open Dashboard', onClick: () => window.open(url, '_blank', 'noopener') },
          duration: 15000,
        });
      }
    },
    [agentId, toast],
  );

  // The link works for 30 minutes: the screen stops watching then (the dialog offers to send another).
  useEffect(() => {
    if (!linkSentTo) return;
    const timer = window.setTimeout(() => setLinkSentTo(null), EMAIL_VERIFICATION_TTL_MINUTES * 60 * 1000);
    return () => window.clearTimeout(timer);
  }, [linkSentTo]);

  // The emailed link was opened in this browser: it is signed in, so the dashboard opens (DESIGN §3).
  useEffect(() => {
    if (!signedInHere || !linkSentTo) return;
    setLinkSentTo(null);
    setDialog(null);
    openDashboardTab(dialog === 'sign-in' ? SUCCESS_TOASTS.signedIn : SUCCESS_TOASTS.setupComplete);
  }, [signedInHere, linkSentTo, dialog, openDashboardTab]);

  // Signed in: the dashboard opens. Otherwise the agent gets a link: account setup, or sign-in when it has an owner.
  const openDashboard = useCallback(async () => {
    if (!agentId) return;
    if (signedInHere) {
      window.open(`/dashboard?agent=${agentId}`, '_blank', 'noopener');
      return;
    }
    try {
      const current = await loadAgent(agentId).unwrap();
      setDialog(current.verified ? 'sign-in' : 'setup');
    } catch {
      toast({ ...SUCCESS_TOASTS.dashboardError, variant: 'destructive' });
    }
  }, [agentId, loadAgent, signedInHere, toast]);

  const dashboardBusy = loadingAgent.isFetching;

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

          <section className={panels.panel} aria-labelledby="receipt-title">
            <h2 id="receipt-title" className={styles.cardTitle}>
              Order details
            </h2>
            <dl className={styles.receipt}>
              <div>
                <dt>Campaign</dt>
                <dd className={styles.receiptHeadline}>{campaign.headline}</dd>
              </div>
              <div>
                <dt>Impressions</dt>
                <dd>{formatImpressions(impressions)}</dd>
              </div>
              <div>
                <dt>Amount paid</dt>
                <dd>{formatUsd(campaign.price)}</dd>
              </div>
              {paymentReference && (
                <div>
                  <dt>Payment reference</dt>
                  <dd className={styles.mono}>{paymentReference}</dd>
                </div>
              )}
            </dl>
          </section>
        </div>

        <section className={panels.panel} aria-labelledby="whats-next-title">
          <h2 id="whats-next-title" className={styles.cardTitle}>
            What's Next?
          </h2>
          <ol className={styles.steps}>
            <li>
              <strong>Your ad goes live</strong>
              <span>We create it on Facebook and Instagram with housing-compliant targeting, usually within minutes.</span>
            </li>
            <li>
              <strong>Local buyers see your listing</strong>
              <span>
                Your {formatImpressions(impressions)} impressions are delivered over about {timeframeForImpressions(impressions)}.
              </span>
            </li>
            <li>
              <strong>Leads come straight to you</strong>
              <span>Buyers who ask about the property on its page are sent to you by email, as soon as you confirm your email with the link we send you.</span>
            </li>
            <li>
              <strong>Track your results</strong>
              <span>Follow impressions, clicks and leads on your Agent Dashboard.</span>
            </li>
          </ol>
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

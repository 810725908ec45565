import { Link, useParams } from 'react-router-dom';
import { buttonStyles as buttons, EmptyState, PageLayout, Spinner } from '@app/ui';
import { AlertIcon, CheckIcon, LockIcon } from '../../components/Icons';
import { useDocumentTitle } from '../../components/PageShell';
import { SiteHeader } from '../../components/SiteHeader';
import { isApiError } from '../../store/api';
import { isPaid, isPayable, parseCampaignId, successPath, type Campaign } from './campaignTypes';
import styles from './Checkout.module.css';
import { useGetPaymentCampaignQuery } from './checkoutApi';
import { PayableCheckout } from './PayableCheckout';
import { CampaignNotFound, isOtherBrowserRefusal } from '../../components/CampaignNotFound';

/** `/checkout/:campaignId`: order summary, terms, and the payment form of the running provider. */
export default function CheckoutPage() {
  useDocumentTitle('Checkout');
  const { campaignId } = useParams();
  const id = parseCampaignId(campaignId);
  const campaign = useGetPaymentCampaignQuery(id ?? 0, { skip: id === null });

  let content;
  if (id === null) {
    content = <CampaignNotFound />;
  } else if (campaign.isLoading) {
    content = <Spinner fullPage label="Loading checkout..." />;
  } else if (campaign.data) {
    content = <Checkout campaign={campaign.data} refetch={campaign.refetch} />;
  } else if (isApiError(campaign.error) && typeof campaign.error.status === 'number' && campaign.error.status < 500) {
    content = <CampaignNotFound otherBrowser={isOtherBrowserRefusal(campaign.error)} />;
  } else {
    content = (
      <EmptyState
        tone="warning"
        icon={<AlertIcon />}
        title="Checkout is unavailable"
        actions={
          <button type="button" className={buttons.primary} onClick={() => void campaign.refetch()}>
            Try again
          </button>
        }
      >
        <p>We couldn't load this campaign. Please check your connection and try again.</p>
      </EmptyState>
    );
  }

  return (
    <PageLayout
      header={
        <SiteHeader>
          <LockIcon width={16} height={16} /> Secure checkout
        </SiteHeader>
      }
      glow="primary"
      mainClassName={styles.main}
    >
      {content}
    </PageLayout>
  );
}

function Checkout({ campaign, refetch }: { campaign: Campaign; refetch: () => unknown }) {
  if (isPaid(campaign.status)) {
    return (
      <EmptyState
        tone="success"
        icon={<CheckIcon />}
        title="This campaign is already paid"
        actions={
          <a href={successPath(campaign)} className={buttons.primary}>
            View campaign status
          </a>
        }
      >
        <p>Your payment was received. Follow your campaign's launch on its confirmation page.</p>
      </EmptyState>
    );
  }
  if (!isPayable(campaign.status)) {
    return (
      <EmptyState
        icon={<AlertIcon />}
        tone="warning"
        title="This campaign was canceled"
        actions={
          <Link to="/" className={buttons.primary}>
            Create a new campaign
          </Link>
        }
      >
        <p>It can no longer be paid for. You can set up a new campaign for your listing in a few minutes.</p>
      </EmptyState>
    );
  }
  return <PayableCheckout campaign={campaign} refetch={refetch} />;
}

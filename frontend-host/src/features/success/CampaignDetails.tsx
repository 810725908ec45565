import { formatUsd, timeframeForImpressions } from '@app/contracts';
import { panelStyles as panels } from '@app/ui';
import { formatImpressions, type Campaign } from '../checkout/campaignTypes';
import styles from './Success.module.css';

/** What was bought: the campaign, its impressions, the amount and the payment's reference. */
export function OrderDetails({ campaign, impressions, paymentReference }: { campaign: Campaign; impressions: number; paymentReference: string | null }) {
  return (
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
  );
}

/** The four steps after payment, with the campaign's impressions and their timeframe. */
export function WhatsNext({ impressions }: { impressions: number }) {
  return (
    <>
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
    </>
  );
}

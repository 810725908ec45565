import { formatCents, formatUsd } from '@app/contracts';
import { useState } from 'react';
import { panelStyles as panels } from '@app/ui';
import { BoltIcon, CheckIcon, HomeIcon, ShieldIcon } from '../../components/Icons';
import { campaignImpressions, formatImpressions, type Campaign } from './campaignTypes';
import styles from './Checkout.module.css';

const TEMPLATE_LABEL = { 'just-listed': 'Just Listed', 'just-sold': 'Just Sold' } as const;
const FORMAT_LABEL = { single: 'Single image ad', carousel: 'Carousel ad' } as const;

/** Spec 000 §2: the lines Instant Listings Impressions Campaign (with impressions), Facebook Ad Campaign, Total due. */
export function OrderSummary({ campaign, creditAppliedCents = 0 }: { campaign: Campaign; creditAppliedCents?: number }) {
  const price = formatUsd(campaign.price);
  // Account credit from an earlier campaign's shortfall is applied automatically (the server decides how much).
  const total = formatCents(Math.round(Number(campaign.price) * 100) - creditAppliedCents);
  const impressions = formatImpressions(campaignImpressions(campaign));
  const image = campaign.imageUrl ?? campaign.carouselImages[0] ?? null;

  return (
    <section className={`${panels.panel} ${styles.summary}`} aria-labelledby="order-summary-title">
      <h2 id="order-summary-title" className={styles.cardTitle}>
        Order summary
      </h2>

      <div className={styles.adPreview}>
        <AdThumb src={image} />
        <div className={styles.adPreviewText}>
          <span className={styles.chip}>{TEMPLATE_LABEL[campaign.templateType] ?? campaign.templateType}</span>
          <p className={styles.adHeadline}>{campaign.headline}</p>
          <p className={styles.adMeta}>{FORMAT_LABEL[campaign.adFormat] ?? campaign.adFormat} · Facebook &amp; Instagram</p>
        </div>
      </div>

      <ul className={styles.lines}>
        <li className={styles.line}>
          <div>
            <p className={styles.lineName}>Instant Listings Impressions Campaign</p>
            <p className={styles.lineDetail}>
              <span data-testid="impressions-count">{impressions}</span> impressions
            </p>
          </div>
          <span className={styles.lineAmount}>{price}</span>
        </li>
        <li className={styles.line}>
          <div>
            <p className={styles.lineName}>Facebook Ad Campaign</p>
            <p className={styles.lineDetail}>Setup, targeting and launch</p>
          </div>
          <span className={styles.lineIncluded}>Included</span>
        </li>
        {creditAppliedCents > 0 && (
          <li className={styles.line}>
            <div>
              <p className={styles.lineName}>Account credit applied</p>
              <p className={styles.lineDetail}>From a campaign that delivered less than guaranteed</p>
            </div>
            <span className={styles.lineAmount} data-testid="credit-applied">
              −{formatCents(creditAppliedCents)}
            </span>
          </li>
        )}
      </ul>

      <div className={styles.total}>
        <span>Total due</span>
        <span className={styles.totalAmount} data-testid="total-due">
          {total}
        </span>
      </div>

      <ul className={styles.assurances}>
        <li>
          <BoltIcon width={16} height={16} /> Launches in under 3 minutes after payment
        </li>
        <li>
          <CheckIcon width={16} height={16} /> {impressions} guaranteed, targeted impressions
        </li>
        <li>
          <ShieldIcon width={16} height={16} /> Housing-compliant ad targeting
        </li>
      </ul>
    </section>
  );
}

function AdThumb({ src }: { src: string | null }) {
  const [broken, setBroken] = useState(false);
  if (!src || broken) {
    return (
      <div className={`${styles.adThumb} ${styles.adThumbPlaceholder}`} aria-hidden="true">
        <HomeIcon width={26} height={26} />
      </div>
    );
  }
  return <img className={styles.adThumb} src={src} alt="" onError={() => setBroken(true)} />;
}

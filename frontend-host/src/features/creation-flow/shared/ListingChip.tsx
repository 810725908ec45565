import { formatUsd } from '@app/contracts';
import { ListingPhoto, primaryPhoto } from './ListingPhoto';
import type { CampaignDraft, Listing } from '../draft/wizardTypes';
import styles from './steps.module.css';

/** The listing being promoted, beside each step's title: photo, address, city, price and ad type. */
export function ListingChip({ listing, campaign }: { listing: Listing; campaign: Pick<CampaignDraft, 'templateType'> | null }) {
  const sold = (campaign?.templateType ?? (listing.status === 'sold' ? 'just-sold' : 'just-listed')) === 'just-sold';
  return (
    <div className={styles.chip} aria-label="Listing being promoted" role="group">
      <ListingPhoto src={primaryPhoto(listing)} alt="" className={styles.chipPhoto} />
      <span className={styles.chipText}>
        <span className={styles.chipAddress}>{listing.address}</span>
        <span className={styles.chipMeta}>
          <span>
            {listing.city}, {listing.state}
          </span>
          <span aria-hidden="true"> · </span>
          <span className={styles.chipPrice}>{formatUsd(listing.price)}</span>
        </span>
      </span>
      <span className={styles.adType} data-type={sold ? 'sold' : 'listed'}>
        {sold ? 'Just Sold ad' : 'Just Listed ad'}
      </span>
    </div>
  );
}

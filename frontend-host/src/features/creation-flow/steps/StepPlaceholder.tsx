import { formatUsd } from '@app/contracts';
import { useAppSelector } from '../../../store/hooks';
import { listingFacts } from '../listingDisplay';
import { ListingPhoto, primaryPhoto } from '../ListingPhoto';
import { StepFrame } from '../StepFrame';
import { useGoToStep } from '../wizardNavigation';
import { selectWizard } from '../wizardSlice';
import type { CampaignDraft, Listing, WizardStep } from '../wizardTypes';
import styles from './StepPlaceholder.module.css';

/** Headings of steps 2–6 (spec 000 §2); their content comes with the next issue. */
const TITLES: Record<Exclude<WizardStep, 1>, string> = {
  2: 'Choose Ad Format',
  3: 'Customize Your Promotion Ad',
  4: 'Add Your Branding',
  5: 'Target Your Ideal Buyers',
  6: 'Choose Your Budget',
};

/** Steps 2–6 for now: the step's heading, the chosen listing, and Back. */
export default function StepPlaceholder({ step }: { step: Exclude<WizardStep, 1> }) {
  const goToStep = useGoToStep();
  const { listing, campaign } = useAppSelector(selectWizard);
  return (
    <StepFrame title={TITLES[step]} onBack={() => goToStep((step - 1) as WizardStep)}>
      {listing ? (
        <ListingSummary listing={listing} campaign={campaign} />
      ) : (
        <p className={styles.empty}>No listing is selected yet. Go back to choose one.</p>
      )}
    </StepFrame>
  );
}

function ListingSummary({ listing, campaign }: { listing: Listing; campaign: CampaignDraft | null }) {
  const sold = listing.status === 'sold';
  const adType = campaign ? (campaign.templateType === 'just-sold' ? 'Just Sold' : 'Just Listed') : null;
  const facts = listingFacts(listing);
  return (
    <section className={styles.summary} aria-labelledby="selected-listing-title">
      <ListingPhoto src={primaryPhoto(listing)} alt={`Photo of ${listing.address}`} className={styles.photo} width={640} />
      <div className={styles.body}>
        <p id="selected-listing-title" className={styles.eyebrow}>
          Your listing
        </p>
        <p className={styles.address}>{listing.address}</p>
        <p className={styles.city}>
          {listing.city}, {listing.state}
        </p>
        <p className={styles.price}>{formatUsd(listing.price)}</p>
        {facts && <p className={styles.facts}>{facts}</p>}
        <div className={styles.tags}>
          <span className={styles.badge} data-status={sold ? 'sold' : 'active'}>
            {sold ? 'Sold' : 'Active'}
          </span>
          {adType && <span className={styles.adType}>{adType} ad</span>}
        </div>
      </div>
    </section>
  );
}

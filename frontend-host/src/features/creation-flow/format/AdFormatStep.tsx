import { CAROUSEL_MAX, CAROUSEL_MIN_MESSAGE, canUseCarousel, carouselImagesForListing, listingImages, type AdFormat } from '@app/contracts';
import { buttonStyles as buttons, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import { useAppDispatch } from '../../../store/hooks';
import { useMobileAction } from '../shared/MobileAction';
import { AdPreviewLayout } from '../shared/preview/PreviewLayout';
import type { CompleteDraft } from '../draft/completeDraft';
import { ListingChip } from '../shared/ListingChip';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import { campaignPatched } from '../draft/wizardSlice';
import type { Agent, Listing } from '../draft/wizardTypes';
import shared from '../shared/steps.module.css';
import styles from './AdFormatStep.module.css';

/** Step 2, Choose Ad Format (spec 000 §2, §4): single image or carousel. */
export function AdFormatStep({ listing, draft }: { agent: Agent; listing: Listing; draft: CompleteDraft }) {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const photos = listingImages(listing);
  const carouselAllowed = canUseCarousel(listing);
  const carouselCount = Math.min(photos.length, CAROUSEL_MAX);

  // Choosing a format (again) starts the carousel over from the listing's first 10 photos (spec 000 §4).
  function choose(format: AdFormat) {
    if (format === 'carousel' && !carouselAllowed) return;
    const imageUrl = draft.imageUrl && photos.includes(draft.imageUrl) ? draft.imageUrl : (photos[0] ?? null);
    dispatch(campaignPatched({ adFormat: format, carouselImages: carouselImagesForListing(listing), imageUrl }));
  }

  const next = () => goToStep(3);
  useMobileAction({ label: 'Continue', onClick: next });

  return (
    <StepFrame
      title="Choose Ad Format"
      subtitle="How should your listing show up in the feed?"
      onBack={() => goToStep(1)}
      width="full"
      aside={<ListingChip listing={listing} campaign={draft} />}
    >
      <AdPreviewLayout>
        <div className={`${panels.panel} ${shared.panel}`}>
          <fieldset className={styles.options}>
            <legend className={shared.panelTitle}>Ad format</legend>
            <FormatOption
              format="single"
              title="Single Image"
              text="One standout photo with your headline and button. Simple and bold."
              checked={draft.adFormat === 'single'}
              onChoose={choose}
            />
            <FormatOption
              format="carousel"
              title="Carousel"
              text={
                carouselAllowed
                  ? `Up to ${CAROUSEL_MAX} photos people swipe through: this listing's first ${carouselCount}.`
                  : `Up to ${CAROUSEL_MAX} photos people swipe through.`
              }
              checked={draft.adFormat === 'carousel'}
              disabledReason={
                carouselAllowed
                  ? null
                  : `${CAROUSEL_MIN_MESSAGE}: this listing has ${photos.length === 0 ? 'no photos' : 'only 1 photo'}.`
              }
              onChoose={choose}
            />
          </fieldset>
          <p className={fields.hint}>You can pick the photos and edit every word of the ad in the next step.</p>
          <div className={shared.actions}>
            <button type="button" className={buttons.primary} onClick={next}>
              Continue
            </button>
          </div>
        </div>
      </AdPreviewLayout>
    </StepFrame>
  );
}

interface FormatOptionProps {
  format: AdFormat;
  title: string;
  text: string;
  checked: boolean;
  disabledReason?: string | null;
  onChoose: (format: AdFormat) => void;
}

function FormatOption({ format, title, text, checked, disabledReason, onChoose }: FormatOptionProps) {
  const id = `ad-format-${format}`;
  const disabled = !!disabledReason;
  return (
    <label className={styles.option} data-checked={checked || undefined} data-disabled={disabled || undefined} htmlFor={id}>
      <input
        id={id}
        type="radio"
        name="ad-format"
        value={format}
        className={styles.radio}
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-text${disabled ? ` ${id}-reason` : ''}`}
        onChange={() => onChoose(format)}
      />
      <span className={styles.art} data-format={format} aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      <span className={styles.body}>
        <span className={styles.title}>{title}</span>
        <span id={`${id}-text`} className={styles.text}>
          {text}
        </span>
        {disabledReason && (
          <span id={`${id}-reason`} className={styles.reason}>
            {disabledReason}
          </span>
        )}
      </span>
      <span className={styles.check} aria-hidden="true" />
    </label>
  );
}

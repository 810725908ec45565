import { CAROUSEL_MAX, CAROUSEL_MIN_MESSAGE, listingImages } from '@app/contracts';
import { useId } from 'react';
import { fieldStyles as fields } from '@app/ui';
import { SafeImage } from '../shared/preview/AdPreview';
import type { CompleteDraft } from '../draft/completeDraft';
import type { CampaignDraft, Listing } from '../draft/wizardTypes';
import styles from './Customize.module.css';

export interface PhotoPickerProps {
  listing: Listing;
  draft: CompleteDraft;
  error: string | null;
  groupRef: (el: HTMLElement | null) => void;
  onChange: (changes: Partial<CampaignDraft>) => void;
}

/** The ad's photo (single image) or its carousel photos in order, 2 to 10 (spec 000 §5). */
export function PhotoPicker({ listing, draft, error, groupRef, onChange }: PhotoPickerProps) {
  const id = useId();
  const photos = listingImages(listing);
  const carousel = draft.adFormat === 'carousel';
  const chosen = draft.carouselImages;
  const tooFew = carousel && chosen.length < 2;
  const full = chosen.length >= CAROUSEL_MAX;
  const shownError = error ?? (tooFew ? CAROUSEL_MIN_MESSAGE : null);

  if (photos.length === 0) {
    return (
      <div className={fields.field}>
        <p className={fields.label}>Photo</p>
        <p className={fields.hint}>This listing has no photos: the ad uses a stock image of a home.</p>
      </div>
    );
  }

  const toggle = (src: string) =>
    onChange({ carouselImages: chosen.includes(src) ? chosen.filter((s) => s !== src) : [...chosen, src] });

  return (
    <fieldset
      className={styles.photos}
      ref={groupRef}
      tabIndex={-1}
      aria-describedby={`${id}-hint ${id}-error`}
      aria-invalid={shownError ? true : undefined}
    >
      <legend className={fields.label}>{carousel ? 'Carousel photos' : 'Photo'}</legend>
      <p id={`${id}-hint`} className={fields.hint}>
        {carousel
          ? `Pick 2 to ${CAROUSEL_MAX} photos; they appear in the order you pick them (${chosen.length} selected).`
          : 'The photo your ad shows.'}
      </p>
      <ul className={styles.photoGrid}>
        {photos.map((src, i) => {
          const order = chosen.indexOf(src);
          const selected = carousel ? order >= 0 : draft.imageUrl === src || (!draft.imageUrl && i === 0);
          return (
            <li key={src}>
              <label className={styles.photo} data-selected={selected || undefined}>
                <input
                  type={carousel ? 'checkbox' : 'radio'}
                  name={carousel ? undefined : `${id}-photo`}
                  className={styles.photoInput}
                  checked={selected}
                  disabled={carousel && !selected && full}
                  aria-label={`Photo ${i + 1}`}
                  onChange={() => (carousel ? toggle(src) : onChange({ imageUrl: src }))}
                />
                <SafeImage src={src} alt="" className={styles.photoImage} />
                {selected && (
                  <span className={styles.photoMark} aria-hidden="true">
                    {carousel ? order + 1 : '✓'}
                  </span>
                )}
              </label>
            </li>
          );
        })}
      </ul>
      <p id={`${id}-error`} className={fields.fieldError} role={shownError ? 'alert' : undefined}>
        {shownError}
      </p>
    </fieldset>
  );
}

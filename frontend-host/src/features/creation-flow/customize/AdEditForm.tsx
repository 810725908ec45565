import { AD_COPY_PLACEHOLDERS, CAROUSEL_MAX, CAROUSEL_MIN_MESSAGE, LIMITS, listingImages } from '@app/contracts';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { buttonStyles as buttons, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import { useAppDispatch } from '../../../store/hooks';
import { useAdCopy } from '../shared/ad-copy/useAdCopy';
import { SafeImage } from '../shared/preview/AdPreview';
import type { CompleteDraft } from '../draft/completeDraft';
import { campaignPatched } from '../draft/wizardSlice';
import type { CampaignDraft, Listing } from '../draft/wizardTypes';
import ui from '../shared/controls.module.css';
import shared from '../shared/steps.module.css';
import { CALL_TO_ACTIONS, validateAd, type AdErrors } from './adValidation';
import { FairHousingWarnings, useFairHousingFindings } from './FairHousingWarnings';
import { RefreshAdCopyButton } from './RefreshAdCopyButton';
import styles from './Customize.module.css';

export const AD_FORM_ID = 'ad-customize-form';

interface AdEditFormProps {
  listing: Listing;
  draft: CompleteDraft;
  /** The agent tried to confirm once: errors show from then on. */
  attempted: boolean;
  onAttempt: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Step 3's edit form (spec 000 §2): every field writes to the draft at once, so the preview follows. */
export function AdEditForm({ listing, draft, attempted, onAttempt, onConfirm, onCancel }: AdEditFormProps) {
  const dispatch = useAppDispatch();
  const id = useId();
  const adCopy = useAdCopy();
  const refs = useRef<Partial<Record<keyof AdErrors, HTMLElement | null>>>({});
  const errors: AdErrors = attempted ? validateAd(draft) : {};
  const set = (changes: Partial<CampaignDraft>) => dispatch(campaignPatched(changes));

  const description = adCopy.busy ? adCopy.text : draft.description;
  const findings = useFairHousingFindings(draft.headline, adCopy.busy ? '' : draft.description, true);

  // Opened by Approve Ad to fix the ad: the first field to fix has the focus (its message says why).
  useEffect(() => {
    if (!attempted) return;
    const found = validateAd(draft);
    const first = (['headline', 'description', 'link', 'photos'] as const).find((field) => found[field]);
    // After the step's own focus on its heading (a parent's effect, which runs after this one).
    const frame = first ? requestAnimationFrame(() => refs.current[first]?.focus()) : 0;
    return () => cancelAnimationFrame(frame);
    // On mount only: while the agent types, the focus stays where they put it.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onAttempt();
    const found = validateAd(draft);
    const first = (['headline', 'description', 'link', 'photos'] as const).find((field) => found[field]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    onConfirm();
  }

  const ctaOptions = CALL_TO_ACTIONS.includes(draft.callToAction as (typeof CALL_TO_ACTIONS)[number])
    ? CALL_TO_ACTIONS
    : [draft.callToAction, ...CALL_TO_ACTIONS];
  const errorProps = (field: keyof AdErrors) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': `${id}-${field}-error`,
  });

  return (
    <form id={AD_FORM_ID} className={`${panels.panel} ${shared.panel}`} onSubmit={onSubmit} noValidate>
      <div className={fields.field}>
        <label className={fields.label} htmlFor={`${id}-headline`}>
          Headline
        </label>
        <input
          id={`${id}-headline`}
          ref={(el) => {
            refs.current.headline = el;
          }}
          className={fields.input}
          value={draft.headline}
          maxLength={LIMITS.headline}
          onChange={(e) => set({ headline: e.target.value })}
          {...errorProps('headline')}
        />
        <p id={`${id}-headline-error`} className={fields.fieldError}>
          {errors.headline}
        </p>
        <FairHousingWarnings
          fieldLabel="Headline"
          findings={findings.headline}
          value={draft.headline}
          onChange={(headline) => set({ headline })}
        />
      </div>

      <div className={fields.field}>
        <div className={styles.copyHead}>
          <label className={fields.label} htmlFor={`${id}-description`}>
            Ad text
          </label>
          <RefreshAdCopyButton />
        </div>
        <textarea
          id={`${id}-description`}
          ref={(el) => {
            refs.current.description = el;
          }}
          className={`${fields.input} ${styles.textarea}`}
          value={description}
          readOnly={adCopy.busy}
          aria-busy={adCopy.busy || undefined}
          placeholder={adCopy.phase === 'failed' ? AD_COPY_PLACEHOLDERS.failed : 'Write what people see above the photo.'}
          maxLength={LIMITS.description}
          rows={6}
          onChange={(e) => set({ description: e.target.value })}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${id}-description-error ${id}-description-hint`}
        />
        <p id={`${id}-description-error`} className={fields.fieldError}>
          {errors.description}
        </p>
        <p id={`${id}-description-hint`} className={adCopy.phase === 'failed' ? fields.fieldError : fields.hint} role={adCopy.phase === 'failed' ? 'alert' : undefined}>
          {adCopy.phase === 'failed'
            ? `${AD_COPY_PLACEHOLDERS.failed}. Write your own, or try Refresh ad copy again.`
            : 'Describe the home and what makes it special. We check your words against Fair Housing rules as you type.'}
        </p>
        <FairHousingWarnings
          fieldLabel="Ad text"
          findings={findings.description}
          value={draft.description}
          onChange={(text) => set({ description: text })}
        />
      </div>

      <div className={`${ui.row} ${ui.row2}`}>
        <div className={fields.field}>
          <label className={fields.label} htmlFor={`${id}-subtitle`}>
            Subtitle
          </label>
          <input
            id={`${id}-subtitle`}
            className={fields.input}
            value={draft.subtitle}
            maxLength={LIMITS.subtitle}
            onChange={(e) => set({ subtitle: e.target.value })}
          />
        </div>
        <div className={fields.field}>
          <label className={fields.label} htmlFor={`${id}-cta`}>
            Call to action
          </label>
          <select
            id={`${id}-cta`}
            className={fields.select}
            value={draft.callToAction}
            onChange={(e) => set({ callToAction: e.target.value })}
          >
            {ctaOptions.map((cta) => (
              <option key={cta} value={cta}>
                {cta}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className={fields.field}>
        <label className={fields.label} htmlFor={`${id}-link`}>
          Link
        </label>
        <input
          id={`${id}-link`}
          ref={(el) => {
            refs.current.link = el;
          }}
          type="url"
          inputMode="url"
          className={fields.input}
          value={draft.link}
          maxLength={LIMITS.url}
          placeholder="https://"
          onChange={(e) => set({ link: e.target.value })}
          {...errorProps('link')}
        />
        <p id={`${id}-link-error`} className={fields.fieldError}>
          {errors.link}
        </p>
      </div>

      <PhotoPicker
        listing={listing}
        draft={draft}
        error={errors.photos ?? null}
        groupRef={(el) => {
          refs.current.photos = el;
        }}
        onChange={set}
      />

      <div className={shared.actions}>
        <button type="button" className={buttons.secondary} onClick={onCancel}>
          Back to overview
        </button>
        <button type="submit" className={buttons.primary} disabled={adCopy.busy}>
          Confirm Preview
        </button>
      </div>
    </form>
  );
}

interface PhotoPickerProps {
  listing: Listing;
  draft: CompleteDraft;
  error: string | null;
  groupRef: (el: HTMLElement | null) => void;
  onChange: (changes: Partial<CampaignDraft>) => void;
}

/** The ad's photo (single image) or its carousel photos in order, 2 to 10 (spec 000 §5). */
function PhotoPicker({ listing, draft, error, groupRef, onChange }: PhotoPickerProps) {
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

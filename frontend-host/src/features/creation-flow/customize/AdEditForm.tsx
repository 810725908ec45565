import { AD_COPY_PLACEHOLDERS, LIMITS } from '@app/contracts';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { SelectField, TextField, buttonStyles as buttons, fieldControlProps, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import { useAppDispatch } from '../../../store/hooks';
import { useAdCopy } from '../shared/ad-copy/useAdCopy';
import type { CompleteDraft } from '../draft/completeDraft';
import { campaignPatched } from '../draft/wizardSlice';
import type { CampaignDraft, Listing } from '../draft/wizardTypes';
import ui from '../shared/controls.module.css';
import shared from '../shared/steps.module.css';
import { CALL_TO_ACTIONS, validateAd, type AdErrors } from './adValidation';
import { FairHousingWarnings, useFairHousingFindings } from './FairHousingWarnings';
import { PhotoPicker } from './PhotoPicker';
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

  return (
    <form id={AD_FORM_ID} className={`${panels.panel} ${shared.panel}`} onSubmit={onSubmit} noValidate>
      <div className={fields.field}>
        <label className={fields.label} htmlFor={`${id}-headline`}>
          Headline
        </label>
        <input
          {...fieldControlProps(`${id}-headline`, { error: errors.headline, announce: 'polite' })}
          ref={(el) => {
            refs.current.headline = el;
          }}
          className={fields.input}
          value={draft.headline}
          maxLength={LIMITS.headline}
          onChange={(e) => set({ headline: e.target.value })}
        />
        <p id={`${id}-headline-error`} className={fields.fieldError} aria-live="polite">
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
          {...fieldControlProps(`${id}-description`, { error: errors.description, announce: 'polite', describedBy: `${id}-description-hint` })}
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
        />
        <p id={`${id}-description-error`} className={fields.fieldError} aria-live="polite">
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
        <TextField id={`${id}-subtitle`} label="Subtitle" value={draft.subtitle} maxLength={LIMITS.subtitle} onChange={(e) => set({ subtitle: e.target.value })} />
        <SelectField id={`${id}-cta`} label="Call to action" value={draft.callToAction} onChange={(e) => set({ callToAction: e.target.value })}>
          {ctaOptions.map((cta) => (
            <option key={cta} value={cta}>
              {cta}
            </option>
          ))}
        </SelectField>
      </div>

      <TextField
        id={`${id}-link`}
        label="Link"
        error={errors.link}
        announce="polite"
        ref={(el) => {
          refs.current.link = el;
        }}
        type="url"
        inputMode="url"
        value={draft.link}
        maxLength={LIMITS.url}
        placeholder="https://"
        onChange={(e) => set({ link: e.target.value })}
      />

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

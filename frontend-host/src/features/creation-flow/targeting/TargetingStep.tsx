import {
  HOUSING_COMPLIANCE_NOTE,
  LIMITS,
  RADIUS_OPTIONS,
  TARGETING_TEMPLATES,
  interestsForTemplate,
  type RadiusMiles,
  type TargetingInterest,
  type TargetingTemplateId,
} from '@app/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { buttonStyles as buttons, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import { errorText, isApiError } from '../../../store/api';
import { useAppDispatch } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useTargetingPreviewQuery } from '../creationFlowApi';
import { useMobileAction } from '../shared/MobileAction';
import { StateOptions } from '../shared/StateOptions';
import type { CompleteDraft } from '../draft/completeDraft';
import { ListingChip } from '../shared/ListingChip';
import { CAMPAIGN_TOASTS, TARGETING_TOASTS } from '../shared/messages';
import { useDebouncedValue } from '../shared/useDebouncedValue';
import { draftBudget, useSaveCampaignDraft } from '../shared/useSaveCampaignDraft';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import { campaignPatched } from '../draft/wizardSlice';
import type { CampaignDraft, Listing } from '../draft/wizardTypes';
import ui from '../shared/controls.module.css';
import shared from '../shared/steps.module.css';
import styles from './Targeting.module.css';

const PREVIEW_DELAY_MS = 400;
const numberFormat = new Intl.NumberFormat('en-US');

/** The template a suggested interest list starts from: the first whose interests are all in it. */
function templateFor(interests: TargetingInterest[], fallback: TargetingTemplateId): TargetingTemplateId {
  const ids = new Set(interests.map((i) => i.id));
  return TARGETING_TEMPLATES.find((t) => interestsForTemplate(t.id).every((i) => ids.has(i.id)))?.id ?? fallback;
}

const sameInterests = (a: TargetingInterest[], b: TargetingInterest[]) =>
  a.length === b.length && a.every((x, i) => x.id === b[i].id && x.enabled === b[i].enabled);

/**
 * Step 5, Target Your Ideal Buyers (spec 000 §2, §4; DESIGN §3): location and radius, a targeting
 * template and its interests, the estimated reach, and the housing compliance note. No age, gender,
 * ZIP or exclusion controls: housing ads may not target by them. Continue creates the campaign.
 */
export function TargetingStep({ listing, draft }: { listing: Listing; draft: CompleteDraft }) {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const { toast } = useToast();
  const id = useId();
  const save = useSaveCampaignDraft();
  const [saving, setSaving] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const location = draft.targetingLocation;
  const set = (changes: Partial<CampaignDraft>) => dispatch(campaignPatched(changes));

  // The estimate follows the location once typing pauses (a string key: a new object every render would never settle).
  const key = JSON.stringify([location.city.trim(), location.state, location.radius]);
  const settledKey = useDebouncedValue(key, PREVIEW_DELAY_MS);
  const [city, state, radius] = JSON.parse(settledKey) as [string, string, RadiusMiles];
  const missing = { city: !location.city.trim(), state: !location.state };
  const preview = useTargetingPreviewQuery(
    { city, state, listingPrice: listing.price, radius },
    { skip: !city || !state },
  );
  const current = settledKey === key && !preview.isFetching;

  // A failed estimate: the spec's toast once per location, and the default options stay.
  const toasted = useRef<string | null>(null);
  useEffect(() => {
    if (preview.isError && toasted.current !== settledKey) {
      toasted.current = settledKey;
      console.warn('Targeting preview failed:', errorText(preview.error));
      toast(TARGETING_TOASTS.loadFailed);
    }
  }, [preview.isError, preview.error, settledKey, toast]);

  // The suggested interests (by listing price) replace the defaults until the agent makes a choice.
  const suggested = preview.data?.interests;
  useEffect(() => {
    if (!suggested || suggested.length === 0 || draft.targetingCustomized) return;
    if (sameInterests(suggested, draft.targetingInterests)) return;
    dispatch(
      campaignPatched({ targetingInterests: suggested, targetingTemplate: templateFor(suggested, draft.targetingTemplate) }),
    );
  }, [dispatch, suggested, draft.targetingCustomized, draft.targetingInterests, draft.targetingTemplate]);

  function chooseTemplate(template: TargetingTemplateId) {
    set({ targetingTemplate: template, targetingInterests: interestsForTemplate(template), targetingCustomized: true });
  }

  function toggleInterest(interestId: string) {
    set({
      targetingInterests: draft.targetingInterests.map((i) => (i.id === interestId ? { ...i, enabled: !i.enabled } : i)),
      targetingCustomized: true,
    });
  }

  const setLocation = (changes: Partial<CompleteDraft['targetingLocation']>) => set({ targetingLocation: { ...location, ...changes } });

  async function onContinue() {
    if (saving) return;
    setAttempted(true);
    if (missing.city || missing.state) return;
    setSaving(true);
    try {
      const saved = await save(draft, draftBudget(draft));
      dispatch(campaignPatched({ campaignId: saved.id }));
      toast(CAMPAIGN_TOASTS.created);
      goToStep(6);
    } catch (error) {
      console.warn('The campaign could not be created:', errorText(error));
      const reasons = isApiError(error) && error.status === 400 && error.fields ? Object.values(error.fields).filter((v): v is string => typeof v === 'string') : [];
      toast(reasons.length ? CAMPAIGN_TOASTS.createRefused(reasons) : CAMPAIGN_TOASTS.createFailed);
    } finally {
      setSaving(false);
    }
  }

  const continueLabel = saving ? 'Creating campaign...' : 'Continue to Pricing';
  useMobileAction({ label: continueLabel, onClick: () => void onContinue(), disabled: saving });

  const enabledCount = draft.targetingInterests.filter((i) => i.enabled).length;
  const reach = preview.data?.estimatedReach;
  const reachState: 'idle' | 'loading' | 'ready' | 'error' =
    missing.city || missing.state ? 'idle' : preview.isError && current ? 'error' : reach !== undefined && current ? 'ready' : 'loading';

  return (
    <StepFrame
      title="Target Your Ideal Buyers"
      subtitle="Show your ad to people around the property who are interested in homes."
      onBack={() => goToStep(4)}
      width="wide"
      aside={<ListingChip listing={listing} campaign={draft} />}
    >
      <div className={styles.layout}>
        <div className={styles.main}>
          <fieldset className={`${panels.panel} ${shared.panel}`}>
            <legend className={shared.panelTitle}>Location</legend>
            <div className={`${ui.row} ${styles.locationRow}`}>
              <div className={fields.field}>
                <label className={fields.label} htmlFor={`${id}-city`}>
                  City
                </label>
                <input
                  id={`${id}-city`}
                  className={fields.input}
                  value={location.city}
                  maxLength={LIMITS.city}
                  autoComplete="address-level2"
                  onChange={(e) => setLocation({ city: e.target.value })}
                  aria-invalid={attempted && missing.city ? true : undefined}
                  aria-describedby={`${id}-city-error`}
                />
                <p id={`${id}-city-error`} className={fields.fieldError}>
                  {attempted && missing.city ? 'City is required' : ''}
                </p>
              </div>
              <div className={fields.field}>
                <label className={fields.label} htmlFor={`${id}-state`}>
                  State
                </label>
                <select
                  id={`${id}-state`}
                  className={fields.select}
                  value={location.state}
                  onChange={(e) => setLocation({ state: e.target.value })}
                  aria-invalid={attempted && missing.state ? true : undefined}
                  aria-describedby={`${id}-state-error`}
                >
                  <StateOptions />
                </select>
                <p id={`${id}-state-error`} className={fields.fieldError}>
                  {attempted && missing.state ? 'State is required' : ''}
                </p>
              </div>
              <div className={fields.field}>
                <label className={fields.label} htmlFor={`${id}-radius`}>
                  Radius
                </label>
                <select
                  id={`${id}-radius`}
                  className={fields.select}
                  value={location.radius}
                  onChange={(e) => setLocation({ radius: Number(e.target.value) as RadiusMiles })}
                  aria-describedby={`${id}-radius-hint`}
                >
                  {RADIUS_OPTIONS.map((miles) => (
                    <option key={miles} value={miles}>
                      {miles} miles
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <p id={`${id}-radius-hint`} className={fields.hint}>
              Housing ads reach everyone within at least 15 miles of the location.
            </p>
          </fieldset>

          <fieldset className={`${panels.panel} ${shared.panel}`}>
            <legend className={shared.panelTitle}>Audience template</legend>
            <div className={styles.templates}>
              {TARGETING_TEMPLATES.map((template) => (
                <label key={template.id} className={styles.template} data-checked={draft.targetingTemplate === template.id || undefined}>
                  <input
                    type="radio"
                    name={`${id}-template`}
                    className={styles.templateInput}
                    checked={draft.targetingTemplate === template.id}
                    onChange={() => chooseTemplate(template.id)}
                    aria-describedby={`${id}-${template.id}-text`}
                  />
                  <span className={styles.templateName}>{template.name}</span>
                  <span id={`${id}-${template.id}-text`} className={styles.templateText}>
                    {template.description}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          <fieldset className={`${panels.panel} ${shared.panel}`}>
            <legend className={shared.panelTitle}>
              Interests <span className={styles.count}>{enabledCount} selected</span>
            </legend>
            <ul className={styles.interests} aria-label="Interests">
              {draft.targetingInterests.map((interest) => (
                <li key={interest.id}>
                  <label className={styles.interest} data-on={interest.enabled || undefined}>
                    <input
                      type="checkbox"
                      className={styles.interestInput}
                      checked={interest.enabled}
                      onChange={() => toggleInterest(interest.id)}
                    />
                    <span aria-hidden="true" className={styles.interestMark}>
                      {interest.enabled ? '✓' : '+'}
                    </span>
                    {interest.name}
                  </label>
                </li>
              ))}
            </ul>
            {reachState === 'error' && <p className={fields.hint}>Using default targeting options.</p>}
          </fieldset>
        </div>

        <aside className={styles.side} aria-label="Audience summary">
          <div className={`${panels.panel} ${shared.panel} ${styles.reachCard}`}>
            <p className={styles.reachLabel}>Estimated reach</p>
            <p className={styles.reachValue} data-testid="estimated-reach" data-state={reachState} aria-live="polite">
              {reachState === 'ready' && reach !== undefined
                ? `${numberFormat.format(reach)} people`
                : reachState === 'loading'
                  ? 'Estimating...'
                  : reachState === 'error'
                    ? 'Not available'
                    : 'Enter a city and state'}
            </p>
            <p className={styles.reachText}>
              on Facebook and Instagram within {location.radius} miles of {location.city.trim() || 'the city'}
              {location.state ? `, ${location.state}` : ''}
            </p>
          </div>
          <div className={styles.compliance} role="note" aria-label="Housing compliance">
            <span className={styles.complianceIcon} aria-hidden="true">
              ⚖
            </span>
            <p>{HOUSING_COMPLIANCE_NOTE}</p>
          </div>
          <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={() => void onContinue()} disabled={saving}>
            {saving && <span className={buttons.spinner} aria-hidden="true" />}
            {continueLabel}
          </button>
        </aside>
      </div>
    </StepFrame>
  );
}

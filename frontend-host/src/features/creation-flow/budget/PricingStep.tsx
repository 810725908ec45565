import {
  BUDGET_MAX,
  BUDGET_MIN,
  BUDGET_RECOMMENDED,
  BUDGET_STEP,
  budgetEstimate,
  formatUsd,
  snapBudget,
} from '@app/contracts';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { VisuallyHidden, buttonStyles as buttons, fieldStyles as fields, panelStyles as panels } from '@app/ui';
import { errorText, isApiError } from '../../../store/api';
import { useAppDispatch } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useMobileAction } from '../shared/MobileAction';
import type { CompleteDraft } from '../draft/completeDraft';
import { ListingChip } from '../shared/ListingChip';
import { CAMPAIGN_TOASTS } from '../shared/messages';
import { draftBudget, useSaveCampaignDraft } from '../shared/useSaveCampaignDraft';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import { campaignPatched } from '../draft/wizardSlice';
import type { Listing } from '../draft/wizardTypes';
import shared from '../shared/steps.module.css';
import styles from './Pricing.module.css';

const count = new Intl.NumberFormat('en-US');
/** Where a budget sits on the slider's track, in percent. */
const position = (budget: number) => ((budget - BUDGET_MIN) / (BUDGET_MAX - BUDGET_MIN)) * 100;

/**
 * Step 6, pricing (spec 000 §2, §4, §9): the budget slider (99–999 in steps of 50), what it buys
 * (impressions, estimated reach 60–70%, timeframe) and the recommended $299. Proceed to Checkout
 * saves the draft with its budget and opens /checkout/{id}; a failed save keeps the draft here.
 */
export function PricingStep({ listing, draft }: { listing: Listing; draft: CompleteDraft }) {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const navigate = useNavigate();
  const { toast } = useToast();
  const id = useId();
  const save = useSaveCampaignDraft();
  const [saving, setSaving] = useState(false);

  const budget = draftBudget(draft);
  const estimate = budgetEstimate(budget);

  function setBudget(value: number) {
    const next = snapBudget(value);
    dispatch(campaignPatched({ price: String(next), impressions: budgetEstimate(next).impressions }));
  }

  async function proceed() {
    if (saving) return;
    setSaving(true);
    try {
      const saved = await save(draft, budget);
      dispatch(campaignPatched({ campaignId: saved.id }));
      toast(CAMPAIGN_TOASTS.savedForCheckout);
      navigate(`/checkout/${saved.id}`);
    } catch (error) {
      console.warn('The campaign could not be saved:', errorText(error));
      toast(CAMPAIGN_TOASTS.saveFailed(isApiError(error) ? error.serverMessage : null));
      setSaving(false);
    }
  }

  const proceedLabel = saving ? 'Saving...' : 'Proceed to Checkout';
  useMobileAction({ label: proceedLabel, onClick: () => void proceed(), disabled: saving });

  const location = draft.targetingLocation;
  return (
    <StepFrame
      title="Choose Your Budget"
      subtitle="One payment, guaranteed impressions. No subscriptions."
      onBack={() => goToStep(5)}
      width="wide"
      aside={<ListingChip listing={listing} campaign={draft} />}
    >
      <div className={styles.layout}>
        <div className={`${panels.panel} ${shared.panel}`}>
          <div className={styles.amountRow}>
            <label id={`${id}-budget-label`} className={shared.panelTitle} htmlFor={`${id}-budget`}>
              Budget
            </label>
            <p className={styles.amount} aria-hidden="true">
              {formatUsd(budget)}
            </p>
          </div>

          <div className={styles.sliderBlock}>
          <div className={styles.slider} style={{ ['--fill' as string]: position(budget) / 100 }}>
            <input
              id={`${id}-budget`}
              type="range"
              className={styles.range}
              min={BUDGET_MIN}
              max={BUDGET_MAX}
              step={BUDGET_STEP}
              value={budget}
              onChange={(e) => setBudget(Number(e.target.value))}
              aria-valuetext={`${formatUsd(budget)}: ${count.format(estimate.impressions)} impressions`}
              aria-describedby={`${id}-range ${id}-recommended`}
            />
            <span className={styles.tick} style={{ ['--at' as string]: position(BUDGET_RECOMMENDED) / 100 }} aria-hidden="true" />
          </div>
          <p id={`${id}-range`} className={styles.rangeLabels}>
            <span>{formatUsd(BUDGET_MIN)}</span>
            <VisuallyHidden> to </VisuallyHidden>
            <span>{formatUsd(BUDGET_MAX)}</span>
          </p>
          <div className={styles.recommendedRow} style={{ ['--at' as string]: position(BUDGET_RECOMMENDED) / 100 }}>
            <button
              type="button"
              id={`${id}-recommended`}
              className={styles.recommended}
              data-active={budget === BUDGET_RECOMMENDED || undefined}
              onClick={() => setBudget(BUDGET_RECOMMENDED)}
            >
              Recommended: {formatUsd(BUDGET_RECOMMENDED)}
            </button>
          </div>
          </div>

          <dl className={styles.stats} aria-live="polite">
            <div className={styles.stat}>
              <dt>Impressions</dt>
              <dd data-testid="impressions">{count.format(estimate.impressions)}</dd>
              <dd className={styles.note}>guaranteed views of your ad</dd>
            </div>
            <div className={styles.stat}>
              <dt>Estimated reach</dt>
              <dd data-testid="estimated-reach">
                {count.format(estimate.reach.min)}–{count.format(estimate.reach.max)}
              </dd>
              <dd className={styles.note}>people (60–70% of impressions)</dd>
            </div>
            <div className={styles.stat}>
              <dt>Timeframe</dt>
              <dd data-testid="timeframe">{estimate.timeframe}</dd>
              <dd className={styles.note}>to deliver every impression</dd>
            </div>
          </dl>
        </div>

        <aside className={`${panels.panel} ${shared.panel} ${styles.summary}`} aria-label="Order summary">
          <p className={shared.panelTitle}>Your campaign</p>
          <ul className={styles.lines}>
            <li>
              <span>Ad</span>
              <span>
                {draft.templateType === 'just-sold' ? 'Just Sold' : 'Just Listed'} ·{' '}
                {draft.adFormat === 'carousel' ? `Carousel, ${draft.carouselImages.length} photos` : 'Single image'}
              </span>
            </li>
            <li>
              <span>Audience</span>
              <span>
                {location.radius} mi around {location.city}, {location.state}
              </span>
            </li>
            <li>
              <span>Placements</span>
              <span>Facebook and Instagram</span>
            </li>
            <li className={styles.total}>
              <span>Total</span>
              <span>{formatUsd(budget)}</span>
            </li>
          </ul>
          <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={() => void proceed()} disabled={saving}>
            {saving && <span className={buttons.spinner} aria-hidden="true" />}
            {proceedLabel}
          </button>
          <p className={fields.hint}>You review everything and pay on the next page.</p>
        </aside>
      </div>
    </StepFrame>
  );
}

import { interestsForTemplate, type TargetingTemplateId } from '@app/contracts';
import { useId, useState } from 'react';
import { buttonStyles as buttons } from '@app/ui';
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
import type { CampaignDraft, Listing } from '../draft/wizardTypes';
import { AudienceFields } from './AudienceFields';
import { LocationFields } from './LocationFields';
import { ReachSummary } from './ReachSummary';
import { useTargetingPreview } from './useTargetingPreview';
import styles from './Targeting.module.css';

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

  const { missing, reach, reachState } = useTargetingPreview(listing, draft);

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
          <LocationFields id={id} location={location} missing={missing} attempted={attempted} onChange={setLocation} />
          <AudienceFields
            id={id}
            draft={draft}
            usingDefaults={reachState === 'error'}
            onTemplate={chooseTemplate}
            onToggle={toggleInterest}
          />
        </div>

        <aside className={styles.side} aria-label="Audience summary">
          <ReachSummary location={location} reach={reach} reachState={reachState} />
          <button type="button" className={`${buttons.primary} ${buttons.block}`} onClick={() => void onContinue()} disabled={saving}>
            {saving && <span className={buttons.spinner} aria-hidden="true" />}
            {continueLabel}
          </button>
        </aside>
      </div>
    </StepFrame>
  );
}

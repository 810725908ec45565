import { useEffect, useMemo } from 'react';
import { Spinner } from '@app/ui';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { useAutomaticAdCopy } from './shared/ad-copy/useAdCopy';
import { StepFrame } from './shared/StepFrame';
import { AdFormatStep } from './format/AdFormatStep';
import { CustomizeStep } from './customize/CustomizeStep';
import { BrandingStep } from './branding/BrandingStep';
import { TargetingStep } from './targeting/TargetingStep';
import { PricingStep } from './budget/PricingStep';
import { useGoToStep } from './draft/wizardNavigation';
import { campaignRepaired, selectWizard } from './draft/wizardSlice';
import type { WizardStep } from './draft/wizardTypes';
import { isCompleteDraft, repairDraft } from './draft/completeDraft';
import styles from './shared/steps.module.css';

export type LaterStep = Exclude<WizardStep, 1>;

/**
 * Steps 2–6 (spec 000 §2, §4). The guards (wizardNavigation) have made sure there is an agent, and
 * a listing from step 3 on. Here the stored campaign draft is completed for the listing (targeting
 * defaults, anything a stored draft lacks), and the first ad copy is fetched wherever the agent is.
 */
export default function Steps({ step }: { step: LaterStep }) {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const { agent, listing, campaign } = useAppSelector(selectWizard);

  const repaired = useMemo(() => (agent && listing ? repairDraft(campaign, agent, listing) : null), [agent, listing, campaign]);
  useEffect(() => {
    if (repaired) dispatch(campaignRepaired(repaired));
  }, [dispatch, repaired]);

  useAutomaticAdCopy(listing, campaign);

  if (!agent || !listing) {
    return (
      <StepFrame title="Choose Ad Format" onBack={() => goToStep(1)}>
        <p className={styles.empty}>No listing is selected yet. Go back to choose one.</p>
      </StepFrame>
    );
  }
  if (!isCompleteDraft(campaign)) return <Spinner label="Loading..." />;

  switch (step) {
    case 2:
      return <AdFormatStep agent={agent} listing={listing} draft={campaign} />;
    case 3:
      return <CustomizeStep listing={listing} draft={campaign} />;
    case 4:
      return <BrandingStep agent={agent} listing={listing} draft={campaign} />;
    case 5:
      return <TargetingStep listing={listing} draft={campaign} />;
    case 6:
      return <PricingStep listing={listing} draft={campaign} />;
  }
}

import { useState } from 'react';
import { useMobileAction } from '../shared/MobileAction';
import { AdPreviewLayout } from '../shared/preview/PreviewLayout';
import type { CompleteDraft } from '../draft/completeDraft';
import { ListingChip } from '../shared/ListingChip';
import { StepFrame } from '../shared/StepFrame';
import { useGoToStep } from '../draft/wizardNavigation';
import type { Listing } from '../draft/wizardTypes';
import { AdEditForm, AD_FORM_ID } from './AdEditForm';
import { AdOverview } from './AdOverview';
import { validateAd } from './adValidation';

/**
 * Step 3, ad customization (spec 000 §2, §4): the overview ("Boom! …") with Edit and Approve Ad,
 * and the edit form ("Customize Your Promotion Ad") with Confirm Preview. Both lead to step 4;
 * Back from the form returns to the overview.
 */
export function CustomizeStep({ listing, draft }: { listing: Listing; draft: CompleteDraft }) {
  const goToStep = useGoToStep();
  const [mode, setMode] = useState<'overview' | 'edit'>('overview');
  const [attempted, setAttempted] = useState(false);

  function approve() {
    // The defaults always pass; a draft edited into an invalid state opens the form to fix it.
    if (Object.keys(validateAd(draft)).length > 0) {
      setAttempted(true);
      setMode('edit');
      return;
    }
    goToStep(4);
  }

  useMobileAction(
    mode === 'overview' ? { label: 'Approve Ad', onClick: approve } : { label: 'Confirm Preview', form: AD_FORM_ID },
  );

  const chip = <ListingChip listing={listing} campaign={draft} />;
  if (mode === 'edit') {
    return (
      <StepFrame
        title="Customize Your Promotion Ad"
        subtitle="Every change shows up in the preview as you type."
        onBack={() => setMode('overview')}
        width="full"
        aside={chip}
      >
        <AdPreviewLayout>
          <AdEditForm
            listing={listing}
            draft={draft}
            attempted={attempted}
            onAttempt={() => setAttempted(true)}
            onConfirm={() => goToStep(4)}
            onCancel={() => setMode('overview')}
          />
        </AdPreviewLayout>
      </StepFrame>
    );
  }
  return (
    <StepFrame
      title="Boom! Your Property is Ready to Promote!"
      subtitle="We built your ad from the listing. Approve it as it is, or edit anything first."
      onBack={() => goToStep(2)}
      width="full"
      aside={chip}
    >
      <AdPreviewLayout>
        <AdOverview draft={draft} onEdit={() => setMode('edit')} onApprove={approve} />
      </AdPreviewLayout>
    </StepFrame>
  );
}

import { snapBudget } from '@app/contracts';
import { useCallback } from 'react';
import { isApiError } from '../../../store/api';
import { useCreateCampaignDraftMutation, useUpdateCampaignDraftMutation, type SavedCampaign } from '../creationFlowApi';
import { campaignBody, type CompleteDraft } from '../draft/completeDraft';

/** The draft's budget on the slider's grid (a stored value off the grid is snapped, never sent as is). */
export function draftBudget(draft: Pick<CompleteDraft, 'price'>): number {
  return snapBudget(Number(draft.price));
}

/**
 * Saves the wizard draft as the server's draft campaign: PATCH when it has been saved before (so going
 * back and forth never makes duplicates), else POST. A saved draft that is gone (404) or no longer a
 * draft (409 campaigns.not_draft: it has been paid for) is not touched: this draft becomes a new campaign.
 */
export function useSaveCampaignDraft() {
  const [create] = useCreateCampaignDraftMutation();
  const [update] = useUpdateCampaignDraftMutation();
  return useCallback(
    async (draft: CompleteDraft, budget: number): Promise<SavedCampaign> => {
      const body = campaignBody(draft, budget);
      if (draft.campaignId) {
        try {
          return await update({ id: draft.campaignId, body }).unwrap();
        } catch (error) {
          const replaceable = isApiError(error) && (error.status === 404 || error.code === 'campaigns.not_draft');
          if (!replaceable) throw error;
        }
      }
      return create(body).unwrap();
    },
    [create, update],
  );
}

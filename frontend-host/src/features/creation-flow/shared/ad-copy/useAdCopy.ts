import { AD_COPY_PLACEHOLDERS, isAdCopyPlaceholder } from '@app/contracts';
import { useCallback, useEffect } from 'react';
import { errorText } from '../../../../store/api';
import { useAppDispatch, useAppSelector } from '../../../../store/hooks';
import { useToast } from '../../../toast/useToast';
import { useOptimizeAdCopyMutation } from '../../creationFlowApi';
import {
  adCopyRefreshed,
  adCopyRefreshFailed,
  adCopyRefreshStarted,
  adCopyResolved,
  selectWizard,
} from '../../draft/wizardSlice';
import type { CampaignDraft, Listing } from '../../draft/wizardTypes';
import { displayedAdCopy, fallbackAdCopy, wantsAutomaticAdCopy } from '../../draft/adCopyRules';
import { AD_COPY_TOASTS } from '../messages';

/** Listings whose automatic copy is on its way, page-wide (two mounted hooks must not both ask). */
const automaticInFlight = new Set<number>();
/** Spec 000 §4: only one refresh at a time, whoever asks. */
let refreshInFlight = false;

/**
 * The first ad copy of a picked listing (spec 000 §4, §7). Step 1 leaves the "Generating optimized
 * ad copy..." placeholder in the draft; this asks the copywriter for just-listed listings with a
 * description and writes the answer — or, when it fails or is not wanted, the listing's own
 * description — over the placeholder. Any other placeholder found in a stored draft (a reload
 * during a call) is replaced the same way, so no placeholder ever reaches a saved campaign.
 */
export function useAutomaticAdCopy(listing: Listing | null, campaign: CampaignDraft | null): void {
  const dispatch = useAppDispatch();
  const [optimize] = useOptimizeAdCopyMutation();
  const listingId = listing?.id;
  const sameListing = !!listing && campaign?.listingId === listing.id;
  const description = sameListing ? campaign.description : null;
  const templateType = sameListing ? campaign.templateType : null;

  useEffect(() => {
    if (!listing || description === null || !templateType || !isAdCopyPlaceholder(description)) return;
    const fallback = fallbackAdCopy(listing);
    if (description !== AD_COPY_PLACEHOLDERS.generating || !wantsAutomaticAdCopy(listing, templateType)) {
      dispatch(adCopyResolved({ listingId: listing.id, expected: description, description: fallback }));
      return;
    }
    if (automaticInFlight.has(listing.id)) return;
    automaticInFlight.add(listing.id);
    const expected = AD_COPY_PLACEHOLDERS.generating;
    optimize({ listingId: listing.id, templateType })
      .unwrap()
      .then(
        ({ optimizedCopy }) =>
          dispatch(adCopyResolved({ listingId: listing.id, expected, description: optimizedCopy.trim() || fallback })),
        (error: unknown) => {
          // No toast: the listing's own description is a good ad text, and Refresh can try again.
          console.warn('Optimized ad copy is not available, the listing description is used:', errorText(error));
          dispatch(adCopyResolved({ listingId: listing.id, expected, description: fallback }));
        },
      )
      .finally(() => automaticInFlight.delete(listing.id));
    // listing is read for its id, status and description only, which listingId stands for.
  }, [dispatch, optimize, listingId, description, templateType]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** The ad text as shown, and the Refresh action (spec 000 §4, §8). */
export function useAdCopy() {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const [optimize] = useOptimizeAdCopyMutation();
  const { listing, campaign, adCopy } = useAppSelector(selectWizard);
  const refreshState = listing && adCopy.listingId === listing.id ? adCopy.status : 'idle';
  const shown = displayedAdCopy(campaign?.description ?? '', refreshState);
  const busy = shown.phase === 'generating' || shown.phase === 'regenerating';

  const listingId = listing?.id;
  const templateType = campaign?.templateType;
  const refresh = useCallback(async () => {
    if (listingId === undefined || !templateType || busy || refreshInFlight) return;
    refreshInFlight = true;
    dispatch(adCopyRefreshStarted({ listingId }));
    try {
      const { optimizedCopy } = await optimize({ listingId, templateType, refresh: true }).unwrap();
      if (!optimizedCopy.trim()) throw new Error('The copywriter returned no text');
      dispatch(adCopyRefreshed({ listingId, description: optimizedCopy.trim() }));
      toast(AD_COPY_TOASTS.refreshed);
    } catch (error) {
      console.warn('Ad copy refresh failed:', errorText(error));
      dispatch(adCopyRefreshFailed({ listingId }));
      toast(AD_COPY_TOASTS.refreshFailed);
    } finally {
      refreshInFlight = false;
    }
  }, [busy, dispatch, listingId, optimize, templateType, toast]);

  return { phase: shown.phase, text: shown.text, busy, refresh };
}

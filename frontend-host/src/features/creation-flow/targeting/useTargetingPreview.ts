import { TARGETING_TEMPLATES, interestsForTemplate, type RadiusMiles, type TargetingInterest, type TargetingTemplateId } from '@app/contracts';
import { useEffect, useRef } from 'react';
import { errorText } from '../../../store/api';
import { useAppDispatch } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useTargetingPreviewQuery } from '../creationFlowApi';
import type { CompleteDraft } from '../draft/completeDraft';
import { campaignPatched } from '../draft/wizardSlice';
import type { Listing } from '../draft/wizardTypes';
import { TARGETING_TOASTS } from '../shared/messages';
import { useDebouncedValue } from '../shared/useDebouncedValue';

const PREVIEW_DELAY_MS = 400;

export type ReachState = 'idle' | 'loading' | 'ready' | 'error';

/** The template a suggested interest list starts from: the first whose interests are all in it. */
function templateFor(interests: TargetingInterest[], fallback: TargetingTemplateId): TargetingTemplateId {
  const ids = new Set(interests.map((i) => i.id));
  return TARGETING_TEMPLATES.find((t) => interestsForTemplate(t.id).every((i) => ids.has(i.id)))?.id ?? fallback;
}

const sameInterests = (a: TargetingInterest[], b: TargetingInterest[]) =>
  a.length === b.length && a.every((x, i) => x.id === b[i].id && x.enabled === b[i].enabled);

/**
 * The targeting preview (spec 000 §4): the estimated reach for the settled location, the spec's toast
 * once per location when it fails, and the suggested interests (by listing price) until the agent chooses.
 */
export function useTargetingPreview(listing: Listing, draft: CompleteDraft) {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const location = draft.targetingLocation;

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

  const reach = preview.data?.estimatedReach;
  const reachState: ReachState =
    missing.city || missing.state ? 'idle' : preview.isError && current ? 'error' : reach !== undefined && current ? 'ready' : 'loading';

  return { missing, reach, reachState };
}

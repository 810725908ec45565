import { AGENT_FORM_MISSING_TOAST, agentFormSchema, fieldErrors, manualListingFormSchema, manualMlsId } from '@app/contracts';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { errorText, failureMessage, isApiError } from '../../../store/api';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useCreateAgentMutation, useCreateListingMutation } from '../creationFlowApi';
import { useGoToStep } from '../draft/wizardNavigation';
import { agentSaved, listingChosen, manualDraftChanged, manualDraftPatched, selectWizard } from '../draft/wizardSlice';
import type { Agent, Listing, ManualListingDraft } from '../draft/wizardTypes';
import { initialAdCopy } from '../draft/adCopyRules';
import { campaignDraftFor } from '../draft/campaignDraft';
import { manualDraftFrom, manualDraftFromListing } from './manualDraft';
import { TOASTS } from './messages';

export const MANUAL_FIELDS = ['fullName', 'address', 'city', 'state', 'price', 'bedrooms', 'bathrooms', 'squareFeet', 'status'] as const;
export type ManualFieldName = (typeof MANUAL_FIELDS)[number];
export type ManualErrors = Partial<Record<ManualFieldName | 'images', string>>;
export type ManualFieldRefs = Partial<Record<ManualFieldName, HTMLInputElement | HTMLSelectElement | null>>;

/** A manual agent from the form's name and state (no MLS record: brokerage, phone and email come later). */
const manualAgent = (name: string, state: string) => ({ name, state, manualEntry: true as const, brokerage: null, phone: null, email: null });

/**
 * The manual listing form's state (spec 000 §2, §5): the draft in the wizard's store, its field messages
 * (the form's own checks once submitted, then the server's), the agent saved before the first photo, and
 * the submit that saves the agent (if needed) and the listing, then moves on to step 2.
 */
export function useManualListing() {
  const dispatch = useAppDispatch();
  const goToStep = useGoToStep();
  const { toast } = useToast();
  const { agent, manualDraft, listing } = useAppSelector(selectWizard);
  const [createAgent] = useCreateAgentMutation();
  const [createListing] = useCreateListingMutation();
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ManualErrors>({});
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const fieldRefs = useRef<ManualFieldRefs>({});

  // What was typed before; else the listing saved from this form (back from step 2); else the defaults.
  const values: ManualListingDraft =
    manualDraft ??
    (listing && agent && listing.mlsId?.startsWith('MANUAL-')
      ? manualDraftFromListing(listing, agent.name)
      : manualDraftFrom(null, agent));

  useEffect(() => {
    if (!manualDraft) dispatch(manualDraftChanged(values));
  }, [dispatch, manualDraft, values]);

  const errors: ManualErrors = { ...serverErrors, ...(attempted ? validate(values) : {}) };

  const set = (field: keyof ManualListingDraft, value: string) => {
    dispatch(manualDraftPatched({ [field]: value }));
    if (serverErrors[field as ManualFieldName]) setServerErrors(({ [field as ManualFieldName]: _, ...rest }) => rest);
  };

  // Upload slots are for a session that owns an agent: the agent is saved (name and state) before the first photo.
  const agentPending = useRef<Promise<Agent | null> | null>(null);
  const ensureAgent = useCallback(async (): Promise<boolean> => {
    if (agent) return true;
    const parsed = agentFormSchema.safeParse({ name: values.fullName, state: values.state });
    if (!parsed.success) {
      toast({ ...AGENT_FORM_MISSING_TOAST, variant: 'destructive' });
      fieldRefs.current[parsed.error.issues.some((i) => i.path[0] === 'name') ? 'fullName' : 'state']?.focus();
      return false;
    }
    agentPending.current ??= createAgent(manualAgent(parsed.data.name, parsed.data.state))
      .unwrap()
      .then(
        (saved) => {
          dispatch(agentSaved(saved));
          return saved;
        },
        (error: unknown) => {
          toast(TOASTS.agentSaveError(isApiError(error) ? (error.serverMessage ?? error.message) : errorText(error)));
          return null;
        },
      )
      .finally(() => {
        agentPending.current = null;
      });
    return (await agentPending.current) !== null;
  }, [agent, values.fullName, values.state, createAgent, dispatch, toast]);

  const onImagesChange = useCallback((images: string[]) => dispatch(manualDraftPatched({ images })), [dispatch]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || uploading) return;
    setAttempted(true);
    setServerErrors({});
    const parsed = manualListingFormSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      const first = MANUAL_FIELDS.find((f) => found[f]);
      if (first) fieldRefs.current[first]?.focus();
      return;
    }
    const v = parsed.data;
    setSaving(true);
    try {
      let owner: Agent | null = agent;
      if (!owner) {
        try {
          owner = await createAgent(manualAgent(v.fullName, v.state)).unwrap();
        } catch (error) {
          toast(TOASTS.agentSaveError(failureMessage(error)));
          return;
        }
        dispatch(agentSaved(owner));
      }

      let saved: Listing;
      try {
        const images = v.images ?? [];
        saved = await createListing({
          agentId: owner.id,
          address: v.address,
          city: v.city,
          state: v.state,
          price: v.price,
          bedrooms: v.bedrooms,
          bathrooms: v.bathrooms,
          squareFeet: v.squareFeet,
          status: v.status,
          imageUrl: images[0] ?? null,
          images,
          mlsId: manualMlsId(),
        }).unwrap();
      } catch (error) {
        if (isApiError(error) && error.fields) setServerErrors(formErrorsFromServer(error.fields));
        toast(TOASTS.listingSaveError);
        return;
      }

      toast(TOASTS.listingSaved);
      dispatch(listingChosen({ listing: saved, campaign: campaignDraftFor(owner, saved, initialAdCopy(saved)) }));
      goToStep(2);
    } finally {
      setSaving(false);
    }
  }

  return { values, errors, set, fieldRefs, saving, uploading, setUploading, ensureAgent, onImagesChange, onSubmit };
}

function validate(values: ManualListingDraft): ManualErrors {
  const result = manualListingFormSchema.safeParse(values);
  if (result.success) return {};
  const found = fieldErrors(result.error);
  const out: ManualErrors = {};
  for (const f of MANUAL_FIELDS) if (found[f]) out[f] = found[f];
  return out;
}

/** The server's 400 `fields` ({ price: "…", "images.0": "…" }) on the form's own fields. */
function formErrorsFromServer(fields: Record<string, unknown>): ManualErrors {
  const out: ManualErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    if (typeof message !== 'string') continue;
    const field = key.split('.')[0];
    if ((MANUAL_FIELDS as readonly string[]).includes(field)) out[field as ManualFieldName] ??= message;
    else if (field === 'images' || field === 'imageUrl') out.images ??= message;
  }
  return out;
}

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStoredWizard, writeStoredWizard, type StoredWizard } from './wizardStorage';
import type {
  Agent,
  AgentFormDraft,
  CampaignDraft,
  Listing,
  ManualListingDraft,
  WizardPath,
} from './wizardTypes';

/**
 * The creation wizard's draft (spec 000 §2–§4). agent, listing, path and campaign are kept in
 * browser storage (wizardStorage); the rest lives for the page only.
 */
export interface WizardState extends StoredWizard {
  /** MLS load finished for the current agent (set after a failed load too, spec §4). */
  listingsLoaded: boolean;
  /** The agent form as typed, so going back to it shows what was entered. */
  agentForm: AgentFormDraft;
  /** The manual listing form as typed, kept while the agent moves between step 1's views. */
  manualDraft: ManualListingDraft | null;
  /** The ad copy refresh of step 3 (the first, automatic copy is the draft's placeholder instead). */
  adCopy: AdCopyState;
}

export interface AdCopyState {
  /** The listing the status belongs to (a new listing starts afresh). */
  listingId: number | null;
  /** 'failed': the last refresh failed, which the description shows only when it has nothing better. */
  status: 'idle' | 'regenerating' | 'failed';
}

const NO_AD_COPY: AdCopyState = { listingId: null, status: 'idle' };

const EMPTY: WizardState = {
  path: 'none',
  agent: null,
  listing: null,
  campaign: null,
  listingsLoaded: false,
  agentForm: { name: '', state: '' },
  manualDraft: null,
  adCopy: NO_AD_COPY,
};

function initialState(): WizardState {
  return { ...EMPTY, ...readStoredWizard() };
}

const wizardSlice = createSlice({
  name: 'wizard',
  initialState,
  reducers: {
    /** `/` without a step: forget the stored agent, listing, path and campaign draft. */
    wizardReset: () => EMPTY,
    pathChosen(state, action: PayloadAction<Exclude<WizardPath, 'none'>>) {
      state.path = action.payload;
    },
    /** Back from a path: the chooser (landing). */
    returnedToChooser(state) {
      state.path = 'none';
    },
    /** Back from the listing loader: the agent form, filled with the agent that was found. */
    returnedToAgentForm(state) {
      if (state.agent) state.agentForm = { name: state.agent.name, state: state.agent.state };
      state.agent = null;
      state.listing = null;
      state.campaign = null;
      state.listingsLoaded = false;
    },
    agentFormChanged(state, action: PayloadAction<Partial<AgentFormDraft>>) {
      state.agentForm = { ...state.agentForm, ...action.payload };
    },
    agentSaved(state, action: PayloadAction<Agent>) {
      if (state.agent?.id !== action.payload.id) {
        state.listing = null;
        state.campaign = null;
        state.listingsLoaded = false;
      }
      state.agent = action.payload;
    },
    listingsMarkedLoaded(state) {
      state.listingsLoaded = true;
    },
    manualDraftChanged(state, action: PayloadAction<ManualListingDraft>) {
      state.manualDraft = action.payload;
    },
    /** Changes some fields of the manual listing form (which starts from manualDraftChanged). */
    manualDraftPatched(state, action: PayloadAction<Partial<ManualListingDraft>>) {
      if (state.manualDraft) state.manualDraft = { ...state.manualDraft, ...action.payload };
    },
    listingChosen(state, action: PayloadAction<{ listing: Listing; campaign: CampaignDraft }>) {
      const previous = state.campaign;
      state.listing = action.payload.listing;
      state.campaign = action.payload.campaign;
      // The same listing again (Back to step 1 and the same row): its saved draft is reused, not duplicated.
      if (previous?.campaignId && previous.listingId === action.payload.campaign.listingId) {
        state.campaign.campaignId = previous.campaignId;
      }
      state.adCopy = NO_AD_COPY;
    },
    /** Replaces a stored draft that is missing fields or belongs to another listing (see completeDraft). */
    campaignRepaired(state, action: PayloadAction<CampaignDraft>) {
      state.campaign = action.payload;
    },
    /** Changes fields of the campaign draft (steps 2–6). */
    campaignPatched(state, action: PayloadAction<Partial<CampaignDraft>>) {
      if (state.campaign) Object.assign(state.campaign, action.payload);
    },
    /**
     * The first ad copy arrived (or its fallback). Compare-and-set: written only while the draft of
     * that listing still holds `expected` (the placeholder), so a late answer never replaces what the
     * agent has since chosen or typed. (No contracts import here: this slice is in the landing's bundle.)
     */
    adCopyResolved(state, action: PayloadAction<{ listingId: number; expected: string; description: string }>) {
      const campaign = state.campaign;
      if (campaign?.listingId === action.payload.listingId && campaign.description === action.payload.expected) {
        campaign.description = action.payload.description;
      }
    },
    adCopyRefreshStarted(state, action: PayloadAction<{ listingId: number }>) {
      state.adCopy = { listingId: action.payload.listingId, status: 'regenerating' };
    },
    adCopyRefreshed(state, action: PayloadAction<{ listingId: number; description: string }>) {
      if (state.campaign?.listingId === action.payload.listingId) state.campaign.description = action.payload.description;
      state.adCopy = { listingId: action.payload.listingId, status: 'idle' };
    },
    /**
     * Spec 000 §4: on failure the description shows "Unable to generate optimized copy". The old text
     * goes, so what the preview shows and what is saved agree (an empty text the agent writes or refreshes).
     */
    adCopyRefreshFailed(state, action: PayloadAction<{ listingId: number }>) {
      if (state.campaign?.listingId === action.payload.listingId) state.campaign.description = '';
      state.adCopy = { listingId: action.payload.listingId, status: 'failed' };
    },
    /** A saved draft reopened (autopilot's Edit link): its agent, listing and campaign, as if chosen on step 1. */
    draftReopened(state, action: PayloadAction<{ path: Exclude<WizardPath, 'none'>; agent: Agent; listing: Listing; campaign: CampaignDraft }>) {
      state.path = action.payload.path;
      state.agent = action.payload.agent;
      state.listing = action.payload.listing;
      state.campaign = action.payload.campaign;
      state.listingsLoaded = true;
      state.adCopy = NO_AD_COPY;
    },
    /** Branding typed on step 4 whose save failed: the previews still show it (spec §8). */
    agentBrandingDrafted(state, action: PayloadAction<Partial<Agent>>) {
      if (state.agent) Object.assign(state.agent, action.payload);
    },
  },
  selectors: {
    selectWizard: (state) => state,
    selectWizardAgent: (state) => state.agent,
    selectWizardListing: (state) => state.listing,
  },
});

export const {
  wizardReset,
  pathChosen,
  returnedToChooser,
  returnedToAgentForm,
  agentFormChanged,
  agentSaved,
  listingsMarkedLoaded,
  manualDraftChanged,
  manualDraftPatched,
  listingChosen,
  campaignRepaired,
  campaignPatched,
  adCopyResolved,
  adCopyRefreshStarted,
  adCopyRefreshed,
  adCopyRefreshFailed,
  agentBrandingDrafted,
  draftReopened,
} = wizardSlice.actions;
export const { selectWizard, selectWizardAgent, selectWizardListing } = wizardSlice.selectors;
export const wizardReducer = wizardSlice.reducer;

/** Mirrors the stored part of the wizard state into browser storage whenever it changes. */
export function persistWizardState(store: { getState(): { wizard: WizardState }; subscribe(listener: () => void): unknown }) {
  let previous: StoredWizard = pickStored(store.getState().wizard);
  store.subscribe(() => {
    const next = pickStored(store.getState().wizard);
    if (
      next.path === previous.path &&
      next.agent === previous.agent &&
      next.listing === previous.listing &&
      next.campaign === previous.campaign
    ) {
      return;
    }
    writeStoredWizard(next, previous);
    previous = next;
  });
}

function pickStored({ path, agent, listing, campaign }: WizardState): StoredWizard {
  return { path, agent, listing, campaign };
}

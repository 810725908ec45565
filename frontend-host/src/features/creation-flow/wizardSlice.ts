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
}

const EMPTY: WizardState = {
  path: 'none',
  agent: null,
  listing: null,
  campaign: null,
  listingsLoaded: false,
  agentForm: { name: '', state: '' },
  manualDraft: null,
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
      state.listing = action.payload.listing;
      state.campaign = action.payload.campaign;
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

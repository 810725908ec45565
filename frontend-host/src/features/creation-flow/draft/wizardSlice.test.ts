/// <reference types="jest" />
import { configureStore } from '@reduxjs/toolkit';
import { campaignDraftFor } from './campaignDraft';
import {
  adCopyRefreshed,
  adCopyRefreshFailed,
  adCopyRefreshStarted,
  adCopyResolved,
  agentBrandingDrafted,
  agentSaved,
  campaignPatched,
  listingChosen,
  pathChosen,
  persistWizardState,
  returnedToAgentForm,
  wizardReducer,
  wizardReset,
  type WizardState,
} from './wizardSlice';
import { readStoredWizard, WIZARD_STORAGE_KEYS, writeStoredWizard } from './wizardStorage';
import { aListing, anAgent } from './testing';

const GENERATING = 'Generating optimized ad copy...';
const agent = anAgent();
const listing = aListing();
const draft = (description = 'Bright bungalow near the river.') => campaignDraftFor(agent, listing, description);

beforeEach(() => sessionStorage.clear());

const fresh = (): WizardState => wizardReducer(undefined, { type: 'test/init' });
const reduce = (state: WizardState, ...actions: Parameters<typeof wizardReducer>[1][]) => actions.reduce(wizardReducer, state);

describe('wizard reducer', () => {
  it('starts from what browser storage holds (a reload keeps the draft)', () => {
    writeStoredWizard({ path: 'mls', agent, listing, campaign: draft() }, null);
    const state = fresh();
    expect(state).toMatchObject({ path: 'mls', agent, listing, campaign: draft(), listingsLoaded: false });
  });

  it('wizardReset forgets the agent, listing, path and campaign draft', () => {
    writeStoredWizard({ path: 'mls', agent, listing, campaign: draft() }, null);
    const state = reduce(fresh(), wizardReset());
    expect(state).toMatchObject({ path: 'none', agent: null, listing: null, campaign: null });
  });

  it('agentSaved for another agent drops the listing and draft of the previous one; the same agent keeps them', () => {
    const chosen = reduce(fresh(), pathChosen('mls'), agentSaved(agent), listingChosen({ listing, campaign: draft() }));
    const same = reduce(chosen, agentSaved({ ...agent, phone: '(813) 555-0199' }));
    expect(same.listing).toEqual(listing);
    expect(same.agent?.phone).toBe('(813) 555-0199');
    const other = reduce(chosen, agentSaved(anAgent({ id: 8, name: 'David Kim', state: 'NY' })));
    expect(other).toMatchObject({ listing: null, campaign: null, listingsLoaded: false });
  });

  it('listingChosen for the same listing again reuses the saved draft id (no duplicate campaign)', () => {
    const saved = reduce(fresh(), agentSaved(agent), listingChosen({ listing, campaign: draft() }), campaignPatched({ campaignId: 90 }));
    const again = reduce(saved, listingChosen({ listing, campaign: draft() }));
    expect(again.campaign?.campaignId).toBe(90);
    const other = reduce(saved, listingChosen({ listing: aListing({ id: 42 }), campaign: { ...draft(), listingId: 42 } }));
    expect(other.campaign?.campaignId).toBeUndefined();
  });

  it('returnedToAgentForm refills the form with the agent found and forgets the agent', () => {
    const state = reduce(fresh(), agentSaved(agent), listingChosen({ listing, campaign: draft() }), returnedToAgentForm());
    expect(state).toMatchObject({ agent: null, listing: null, campaign: null, agentForm: { name: 'Sarah Johnson', state: 'FL' } });
  });

  it('adCopyResolved writes the first copy only while the placeholder is still there (compare-and-set)', () => {
    const waiting = reduce(fresh(), agentSaved(agent), listingChosen({ listing, campaign: draft(GENERATING) }));
    const resolved = reduce(waiting, adCopyResolved({ listingId: listing.id, expected: GENERATING, description: 'Fresh copy' }));
    expect(resolved.campaign?.description).toBe('Fresh copy');
    // The agent typed meanwhile: a late answer changes nothing.
    const typed = reduce(waiting, campaignPatched({ description: 'My own words' }));
    const late = reduce(typed, adCopyResolved({ listingId: listing.id, expected: GENERATING, description: 'Fresh copy' }));
    expect(late.campaign?.description).toBe('My own words');
    // An answer for another listing changes nothing either.
    const stray = reduce(waiting, adCopyResolved({ listingId: 999, expected: GENERATING, description: 'Fresh copy' }));
    expect(stray.campaign?.description).toBe(GENERATING);
  });

  it('a refresh goes regenerating → idle with the new copy, or → failed with the old copy gone (spec 000 §4)', () => {
    const ready = reduce(fresh(), agentSaved(agent), listingChosen({ listing, campaign: draft('Old copy') }));
    const running = reduce(ready, adCopyRefreshStarted({ listingId: listing.id }));
    expect(running.adCopy).toEqual({ listingId: listing.id, status: 'regenerating' });
    const refreshed = reduce(running, adCopyRefreshed({ listingId: listing.id, description: 'New copy' }));
    expect(refreshed.adCopy.status).toBe('idle');
    expect(refreshed.campaign?.description).toBe('New copy');
    const failed = reduce(running, adCopyRefreshFailed({ listingId: listing.id }));
    expect(failed.adCopy.status).toBe('failed');
    expect(failed.campaign?.description).toBe('');
  });

  it('agentBrandingDrafted keeps typed branding in the previews after a failed save', () => {
    const state = reduce(fresh(), agentSaved(anAgent({ brokerage: null })), agentBrandingDrafted({ brokerage: 'Gulf Coast Homes' }));
    expect(state.agent?.brokerage).toBe('Gulf Coast Homes');
    expect(reduce(fresh(), agentBrandingDrafted({ brokerage: 'x' })).agent).toBeNull();
  });
});

describe('persistWizardState', () => {
  it('mirrors agent, listing, path and campaign into sessionStorage as they change, and nothing else', () => {
    const store = configureStore({ reducer: { wizard: wizardReducer } });
    persistWizardState(store);
    store.dispatch(pathChosen('manual'));
    store.dispatch(agentSaved(agent));
    store.dispatch(listingChosen({ listing, campaign: draft() }));
    expect(readStoredWizard()).toEqual({ path: 'manual', agent, listing, campaign: draft() });
    store.dispatch(adCopyRefreshStarted({ listingId: listing.id }));
    expect(Object.keys(sessionStorage).sort()).toEqual(Object.values(WIZARD_STORAGE_KEYS).sort());
    store.dispatch(wizardReset());
    expect(sessionStorage.length).toBe(0);
  });
});

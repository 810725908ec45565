/// <reference types="jest" />
import { campaignDraftFor } from './campaignDraft';
import { clearStoredWizard, readStoredWizard, WIZARD_STORAGE_KEYS, writeStoredWizard, type StoredWizard } from './wizardStorage';
import { aListing, anAgent } from './testing';

const agent = anAgent();
const listing = aListing();
const campaign = campaignDraftFor(agent, listing, 'Bright bungalow near the river.');
const full: StoredWizard = { path: 'mls', agent, listing, campaign };

beforeEach(() => sessionStorage.clear());

describe('wizard storage (spec 000 §3: agent, listing and path in browser storage)', () => {
  it('reads nothing as an empty draft', () => {
    expect(readStoredWizard()).toEqual({ path: 'none', agent: null, listing: null, campaign: null });
  });

  it('writes the draft under its keys in sessionStorage and reads it back', () => {
    writeStoredWizard(full, null);
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEYS.path)).toBe('mls');
    expect(JSON.parse(sessionStorage.getItem(WIZARD_STORAGE_KEYS.agent)!)).toEqual(agent);
    expect(localStorage.length).toBe(0);
    expect(readStoredWizard()).toEqual(full);
  });

  it('writes only what changed (same object = unchanged)', () => {
    writeStoredWizard(full, null);
    sessionStorage.setItem(WIZARD_STORAGE_KEYS.listing, JSON.stringify({ ...listing, city: 'Elsewhere' }));
    const renamed = { ...agent, name: 'Sarah J. Johnson' };
    writeStoredWizard({ ...full, agent: renamed }, full);
    expect(JSON.parse(sessionStorage.getItem(WIZARD_STORAGE_KEYS.agent)!).name).toBe('Sarah J. Johnson');
    // The listing was the same object: not rewritten.
    expect(JSON.parse(sessionStorage.getItem(WIZARD_STORAGE_KEYS.listing)!).city).toBe('Elsewhere');
  });

  it('removes a key when its value goes (path none, no agent)', () => {
    writeStoredWizard(full, null);
    writeStoredWizard({ path: 'none', agent: null, listing: null, campaign: null }, full);
    for (const key of Object.values(WIZARD_STORAGE_KEYS)) expect(sessionStorage.getItem(key)).toBeNull();
  });

  it('ignores what it cannot use: broken JSON, values of the wrong shape, an unknown path', () => {
    sessionStorage.setItem(WIZARD_STORAGE_KEYS.path, 'wizard');
    sessionStorage.setItem(WIZARD_STORAGE_KEYS.agent, '{not json');
    sessionStorage.setItem(WIZARD_STORAGE_KEYS.listing, JSON.stringify({ id: 'forty-one' }));
    sessionStorage.setItem(WIZARD_STORAGE_KEYS.campaign, JSON.stringify(['no', 'listing id']));
    expect(readStoredWizard()).toEqual({ path: 'none', agent: null, listing: null, campaign: null });
  });

  it('clears every key', () => {
    writeStoredWizard(full, null);
    sessionStorage.setItem('unrelated', 'kept');
    clearStoredWizard();
    for (const key of Object.values(WIZARD_STORAGE_KEYS)) expect(sessionStorage.getItem(key)).toBeNull();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it('keeps working when the browser refuses storage', () => {
    const refuse = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    const get = jest.spyOn(Storage.prototype, 'getItem').mockImplementation(refuse);
    const set = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(refuse);
    try {
      expect(() => writeStoredWizard(full, null)).not.toThrow();
      expect(readStoredWizard()).toEqual({ path: 'none', agent: null, listing: null, campaign: null });
    } finally {
      get.mockRestore();
      set.mockRestore();
    }
  });
});

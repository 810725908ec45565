import type { Agent, CampaignDraft, Listing, WizardPath } from './wizardTypes';

/**
 * Browser storage of the wizard draft (spec 000 §3: agent, listing and path; plus the campaign draft).
 *
 * sessionStorage, not localStorage: a draft belongs to one tab. The product opens itself in new
 * tabs ("Create Another Campaign" opens / in a new tab, and / resets the wizard), which with
 * localStorage would wipe or overwrite the draft of a tab still in use; two campaigns in two tabs
 * stay apart; and a half-finished draft does not outlive the tab on a shared computer. A reload
 * keeps the draft, which is what the step query parameter needs.
 */
export const WIZARD_STORAGE_KEYS = {
  agent: 'wizard-agent',
  listing: 'wizard-listing',
  path: 'wizard-path',
  campaign: 'wizard-campaign',
} as const;

export interface StoredWizard {
  path: WizardPath;
  agent: Agent | null;
  listing: Listing | null;
  campaign: CampaignDraft | null;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage disabled by the browser: the wizard still works, without surviving a reload
  }
}

function readJson<T>(key: string, isValid: (value: unknown) => boolean): T | null {
  try {
    const raw = storage()?.getItem(key);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? (value as T) : null;
  } catch {
    return null;
  }
}

const hasNumericId = (value: unknown) =>
  !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';

const isCampaignDraft = (value: unknown) =>
  !!value && typeof value === 'object' && typeof (value as { listingId?: unknown }).listingId === 'number';

export function readStoredWizard(): StoredWizard {
  const rawPath = (() => {
    try {
      return storage()?.getItem(WIZARD_STORAGE_KEYS.path) ?? null;
    } catch {
      return null;
    }
  })();
  return {
    path: rawPath === 'mls' || rawPath === 'manual' ? rawPath : 'none',
    agent: readJson<Agent>(WIZARD_STORAGE_KEYS.agent, hasNumericId),
    listing: readJson<Listing>(WIZARD_STORAGE_KEYS.listing, hasNumericId),
    campaign: readJson<CampaignDraft>(WIZARD_STORAGE_KEYS.campaign, isCampaignDraft),
  };
}

function write(key: string, value: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // quota or privacy mode: keep going with the in-memory state
  }
}

/** Writes what changed since `previous` (same object = unchanged). */
export function writeStoredWizard(next: StoredWizard, previous: StoredWizard | null): void {
  if (next.path !== previous?.path) write(WIZARD_STORAGE_KEYS.path, next.path === 'none' ? null : next.path);
  if (next.agent !== previous?.agent) write(WIZARD_STORAGE_KEYS.agent, next.agent && JSON.stringify(next.agent));
  if (next.listing !== previous?.listing) write(WIZARD_STORAGE_KEYS.listing, next.listing && JSON.stringify(next.listing));
  if (next.campaign !== previous?.campaign) {
    write(WIZARD_STORAGE_KEYS.campaign, next.campaign && JSON.stringify(next.campaign));
  }
}

export function clearStoredWizard(): void {
  for (const key of Object.values(WIZARD_STORAGE_KEYS)) write(key, null);
}

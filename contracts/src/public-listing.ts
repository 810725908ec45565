/** Texts and rules of the public listing pages and the lead form (spec 001 §2, §5, §8, §9). No zod here: the page's bundle imports it. */

/** The TCPA consent notice on the /listing lead form. A changed wording gets a new version; stored leads keep theirs. */
export const LEAD_CONSENT_TEXTS = {
  'tcpa-2026-11':
    'By sending this form, you agree that the agent may call and text you about this and similar properties at the number you provided, including by autodialer or prerecorded voice. Consent is not a condition of purchase. Message and data rates may apply.',
} as const;
export type LeadConsentVersion = keyof typeof LEAD_CONSENT_TEXTS;
export const LEAD_CONSENT_VERSIONS = Object.keys(LEAD_CONSENT_TEXTS) as [LeadConsentVersion, ...LeadConsentVersion[]];
export const CURRENT_LEAD_CONSENT_VERSION: LeadConsentVersion = 'tcpa-2026-11';

/** Sends faster than this after the page was rendered are refused (a person reads and types first). */
export const LEAD_MIN_FILL_MS = 3_000;
/** A page's form token is good for a day. */
export const LEAD_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export const PROPERTY_NOT_FOUND = {
  title: 'Property Not Found',
  description: "The listing you're looking for could not be found.",
} as const;

/** Toast when name or email is missing on the lead form. */
export const LEAD_FORM_MISSING_TOAST = {
  title: 'Required fields missing',
  description: 'Please provide your name and email address',
} as const;

export const LEAD_SENT_TOAST = {
  title: 'Thank you!',
  description: 'Your information has been sent to the agent. They will contact you soon.',
} as const;

export const LEAD_FAILED_TOAST_TITLE = 'Error';
export const LEAD_FAILED_FALLBACK = 'Failed to send your information';

export const EQUAL_HOUSING_STATEMENT =
  'We are pledged to the letter and spirit of U.S. policy for the achievement of equal housing opportunity throughout the Nation. We encourage and support an affirmative advertising and marketing program in which there are no barriers to obtaining housing because of race, color, religion, sex, handicap, familial status, or national origin.';

/** Photo grid: 1 large + 4 small on desktop, 1 + 2 on mobile (spec §9: 5 and 3 images). */
export const GALLERY_GRID_DESKTOP = 5;
export const GALLERY_GRID_MOBILE = 3;

/** Image fallback label: "just sold" for a sold listing, else "just listed". */
export function placeholderLabel(status: string | null | undefined): 'just sold' | 'just listed' {
  return status === 'sold' ? 'just sold' : 'just listed';
}

/** Wrapping gallery index: next of the last is the first, previous of the first is the last. */
export function wrapIndex(index: number, total: number): number {
  if (total <= 0) return 0;
  return ((index % total) + total) % total;
}

/** The "Interest" column of a lead: what the buyer ticked. */
export function leadInterest(lead: { interestedInTour: boolean; interestedInSimilar: boolean }): string {
  const parts = [lead.interestedInTour ? 'Tour' : null, lead.interestedInSimilar ? 'Similar homes' : null].filter(Boolean);
  return parts.length ? parts.join(', ') : 'General';
}

/** Manual listing page images: listing images, campaign imageUrl, listing imageUrl, in that order of preference. */
export function manualListingImages(listing: { images: readonly string[]; imageUrl: string | null }, campaign: { imageUrl: string | null } | null): string[] {
  if (listing.images.length) return [...listing.images];
  if (campaign?.imageUrl) return [campaign.imageUrl];
  if (listing.imageUrl) return [listing.imageUrl];
  return [];
}

/** External maps link for the Location section. */
export function externalMapUrl(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
}

/**
 * Why a lead sent while its listing was guarded (a flood of leads) was held for the agent's review instead of
 * delivered: its address or network sent many leads, it repeats another lead, or the page's proof of work was
 * missing or wrong.
 */
export const LEAD_HOLD_REASONS = ['address', 'network', 'content', 'proof'] as const;
export type LeadHoldReason = (typeof LEAD_HOLD_REASONS)[number];

/** What the dashboard says of each reason. */
export const LEAD_HOLD_REASON_TEXT: Record<LeadHoldReason, string> = {
  address: 'many leads from one address',
  network: 'many leads from one network',
  content: 'repeats another lead',
  proof: "the page's check was not completed",
};

/** The leads the agent sees: `received` (delivered on every channel) or `held` for review (Release or Discard). */
export const LEAD_VIEWS = ['received', 'held'] as const;
export type LeadView = (typeof LEAD_VIEWS)[number];

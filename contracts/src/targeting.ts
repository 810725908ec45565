/**
 * Targeting options (spec 000 §2 step 5, §9; DESIGN §3). Housing ads run under Meta's HOUSING
 * special ad category: no age, gender, ZIP-code or exclusion targeting, and a 15-mile minimum radius.
 */

export const RADIUS_OPTIONS = [15, 25, 35, 50] as const;
export type RadiusMiles = (typeof RADIUS_OPTIONS)[number];
export const DEFAULT_RADIUS: RadiusMiles = 25;
export const MIN_RADIUS: RadiusMiles = 15;

export function isRadiusOption(value: unknown): value is RadiusMiles {
  return typeof value === 'number' && (RADIUS_OPTIONS as readonly number[]).includes(value);
}

export const TARGETING_TEMPLATE_IDS = ['general', 'buyers', 'investment', 'financing'] as const;
export type TargetingTemplateId = (typeof TARGETING_TEMPLATE_IDS)[number];
export const DEFAULT_TARGETING_TEMPLATE: TargetingTemplateId = 'general';

export interface TargetingTemplate {
  id: TargetingTemplateId;
  name: string;
  description: string;
  /** Interest names as the ad platform lists them. */
  interests: readonly string[];
}

export const TARGETING_TEMPLATES: readonly TargetingTemplate[] = [
  {
    id: 'general',
    name: 'General Audience',
    description: 'Broad reach to people in the area who are interested in homes and real estate.',
    interests: ['Real estate', 'Homeownership', 'Home improvement', 'Interior design', 'Zillow', 'Realtor.com'],
  },
  {
    id: 'buyers',
    name: 'Active Home Buyers',
    description: 'People browsing listings, visiting open houses and getting ready to buy.',
    interests: [
      'Real estate',
      'Zillow',
      'Realtor.com',
      'Trulia',
      'Redfin',
      'First-time buyer',
      'Open house',
      'Mortgage loans',
    ],
  },
  {
    id: 'investment',
    name: 'Real Estate Investors',
    description: 'Investors looking for rental income, flips and long-term appreciation.',
    interests: [
      'Real estate investing',
      'Rental property',
      'Property management',
      'House flipping',
      'Vacation rental',
      'BiggerPockets',
      'Passive income',
    ],
  },
  {
    id: 'financing',
    name: 'Financing & Mortgages',
    description: 'People researching mortgages, refinancing and home loans.',
    interests: [
      'Mortgage loans',
      'Refinancing',
      'Home equity',
      'FHA insured loan',
      'Mortgage calculator',
      'Down payment',
      'Credit score',
    ],
  },
];

export function isTargetingTemplateId(value: unknown): value is TargetingTemplateId {
  return typeof value === 'string' && (TARGETING_TEMPLATE_IDS as readonly string[]).includes(value);
}

export function getTargetingTemplate(id: TargetingTemplateId): TargetingTemplate {
  return TARGETING_TEMPLATES.find((t) => t.id === id)!;
}

export interface TargetingInterest {
  id: string;
  name: string;
  enabled: boolean;
}

/** Stable id for an interest name: "Realtor.com" → "realtor-com", "First-time buyer" → "first-time-buyer". */
export function interestId(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A template's interests as the draft's {id, name, enabled} list, all enabled. */
export function interestsForTemplate(id: TargetingTemplateId): TargetingInterest[] {
  return getTargetingTemplate(id).interests.map((name) => ({ id: interestId(name), name, enabled: true }));
}

/** Keys that would mean demographic or ZIP targeting; the targeting schemas reject these by name. */
export const FORBIDDEN_TARGETING_KEYS: readonly string[] = [
  'age',
  'ages',
  'ageMin',
  'ageMax',
  'age_min',
  'age_max',
  'ageRange',
  'gender',
  'genders',
  'zip',
  'zips',
  'zipCode',
  'zipCodes',
  'zip_code',
  'postalCode',
  'postalCodes',
  'postal_code',
  'exclusions',
  'excludedInterests',
];

export const HOUSING_TARGETING_REJECTED =
  'Age, gender and ZIP code targeting are not available for housing ads';

export const HOUSING_COMPLIANCE_NOTE =
  'Housing ads follow fair housing rules: targeting by age, gender or other demographics is not offered.';

export interface TargetingDraftDefaults {
  targetingLocation: { city: string; state: string; radius: RadiusMiles };
  targetingTemplate: TargetingTemplateId;
  targetingInterests: TargetingInterest[];
}

/** The targeting step's starting point for a listing: its city and state, 25 miles, general template. */
export function defaultTargetingDraft(listing: { city: string; state: string }): TargetingDraftDefaults {
  return {
    targetingLocation: { city: listing.city.trim(), state: listing.state.trim(), radius: DEFAULT_RADIUS },
    targetingTemplate: DEFAULT_TARGETING_TEMPLATE,
    targetingInterests: interestsForTemplate(DEFAULT_TARGETING_TEMPLATE),
  };
}

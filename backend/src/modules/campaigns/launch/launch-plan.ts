import {
  adLinkDescription,
  DEFAULT_RADIUS,
  DEFAULT_TARGETING_TEMPLATE,
  MIN_RADIUS,
  defaultHeadline,
  interestsForTemplate,
  isAdCopyPlaceholder,
  listingImages,
  timeframeDaysForImpressions,
} from '@app/contracts';
import type { Campaign } from '../campaign.model';
import type { CampaignListing } from '../listing-access';
import { rewriteForFairHousing } from '../fair-housing/fair-housing';
import { normaliseCityName, stateCode, usPlaces } from '../targeting/us-places';
import type { AdTargeting, CampaignSpec, CreativeSpec } from '../providers';

/** Meta's floor for an ad set's daily budget in USD is $1; ours is the same, in cents. */
export const MIN_DAILY_BUDGET_CENTS = 100;

/** A problem with our own data that no retry can fix (no image, no absolute link…): the launch fails at once. */
export class LaunchInputError extends Error {
  override readonly name = 'LaunchInputError';
}

export interface LaunchPlan {
  names: { campaign: string; adSet: string; creative: string; ad: string };
  campaign: CampaignSpec;
  dailyBudgetCents: number;
  /** The timeframe's upper bound (spec 000 §9): the ad set runs from launch for this many days. */
  timeframeDays: number;
  targeting: AdTargeting;
  creative: Omit<CreativeSpec, 'name'>;
  /** How many Fair Housing findings the launch-time rewrite removed from the copy. */
  fairHousingFindings: number;
}

/**
 * Names carry our campaign id (LA#<id>) and the environment's host: the Graph API has no
 * idempotency keys, so a retry finds what an earlier attempt created by its exact name, and two
 * environments sharing one ad account never find each other's campaigns. Built only from values that
 * do not change after payment, so every attempt computes the same names.
 */
export function launchNames(c: Pick<Campaign, 'id' | 'templateType' | 'mlsListingId'>, publicUrl: string | undefined) {
  const env = publicUrl ? new URL(publicUrl).host : 'local';
  const tag = `LA#${c.id}`;
  const label = c.templateType === 'just-sold' ? 'Just Sold' : 'Just Listed';
  return {
    campaign: `${tag} · ${label} · ${c.mlsListingId ?? 'listing'} · ${env}`,
    adSet: `${tag} · ad set · ${env}`,
    creative: `${tag} · creative · ${env}`,
    ad: `${tag} · ad · ${env}`,
  };
}

/** Daily budget: the whole budget spread over the longest timeframe, so the ad set never spends more than was paid. */
export function dailyBudgetCents(budgetCents: number, impressions: number): number {
  const { maxDays } = timeframeDaysForImpressions(impressions);
  return Math.max(MIN_DAILY_BUDGET_CENTS, Math.floor(budgetCents / maxDays));
}

/** Our call-to-action text → the ad platform's call_to_action type (Meta's names). Anything else is LEARN_MORE. */
const CTA_TYPES: Record<string, string> = {
  'learn more': 'LEARN_MORE',
  'view details': 'LEARN_MORE',
  'see more': 'SEE_MORE',
  'contact us': 'CONTACT_US',
  'sign up': 'SIGN_UP',
  'get quote': 'GET_QUOTE',
  'apply now': 'APPLY_NOW',
  'book now': 'BOOK_NOW',
  'call now': 'CALL_NOW',
  'get offer': 'GET_OFFER',
  subscribe: 'SUBSCRIBE',
};
export function callToActionType(text: string | null | undefined): string {
  return CTA_TYPES[(text ?? '').trim().toLowerCase()] ?? 'LEARN_MORE';
}

/**
 * Where the ad runs: the stored targeting location (else the listing's city, 25 miles), as a point
 * and a radius in miles — the listing's own coordinates when the location is the listing's city, the
 * city's (GeoNames) otherwise, the "City, ST" address as a last resort. Interests: the enabled ones.
 * Housing: nothing about age, gender or ZIP codes is ever produced here.
 */
export function targetingFor(c: Pick<Campaign, 'targeting'>, listing: Pick<CampaignListing, 'city' | 'state' | 'latitude' | 'longitude'>): AdTargeting {
  const stored = c.targeting ?? {};
  const loc = stored.targetingLocation ?? { city: listing.city, state: listing.state, radius: DEFAULT_RADIUS };
  const radiusMiles = Math.max(MIN_RADIUS, loc.radius);
  const st = stateCode(loc.state) ?? loc.state.trim().toUpperCase();
  const label = `${loc.city.trim()}, ${st}`;
  const listingCity = normaliseCityName(loc.city) === normaliseCityName(listing.city) && st === (stateCode(listing.state) ?? listing.state.trim().toUpperCase());
  let location: AdTargeting['location'];
  if (listingCity && listing.latitude != null && listing.longitude != null) {
    location = { latitude: listing.latitude, longitude: listing.longitude, radiusMiles, label };
  } else {
    const place = usPlaces().find(loc.city, st);
    location = place ? { latitude: place.lat, longitude: place.lon, radiusMiles, label } : { address: label, radiusMiles, label };
  }
  const interests = (stored.targetingInterests ?? interestsForTemplate(stored.targetingTemplate ?? DEFAULT_TARGETING_TEMPLATE))
    .filter((i) => i.enabled)
    .map((i) => i.name);
  return { location, interests: [...new Set(interests)] };
}

/**
 * Everything a launch sends, from the campaign as paid. The agent's copy is checked again here
 * (rewriteForFairHousing): drafts are only checked when the copywriter writes them, and the agent
 * may have typed their own.
 */
export function buildLaunchPlan(
  c: Campaign,
  listing: CampaignListing,
  opts: { publicUrl: string | undefined; requireAbsoluteLink: boolean },
): LaunchPlan {
  const names = launchNames(c, opts.publicUrl);
  const headline = rewriteForFairHousing(c.headline ?? '');
  // The ad text: the draft's (required since drafts are checked for it), else, for an older draft, the listing's
  // description; an ad-copy placeholder is never text. No text, no ad.
  const text = [c.description, listing.description].find((t) => t?.trim() && !isAdCopyPlaceholder(t)) ?? '';
  const primary = rewriteForFairHousing(text);
  if (!primary.text.trim()) throw new LaunchInputError('The ad has no text');
  const subtitle = rewriteForFairHousing(c.subtitle ?? '');

  const images = c.adFormat === 'carousel' ? (c.carouselImages ?? []).slice(0, 10) : [c.imageUrl ?? listingImages(listing)[0]].filter(Boolean);
  if (c.adFormat === 'carousel' && images.length < 2) throw new LaunchInputError('A carousel ad needs 2 to 10 images');
  if (images.length === 0) throw new LaunchInputError('The ad has no image');

  let link = c.link?.trim() ?? '';
  if (!link) throw new LaunchInputError('The ad has no link');
  if (!/^https?:\/\//i.test(link)) {
    if (opts.publicUrl) link = new URL(link, opts.publicUrl).toString();
    else if (opts.requireAbsoluteLink) throw new LaunchInputError('PUBLIC_URL is not configured, so the ad cannot link to the listing page');
  }

  return {
    names,
    campaign: { name: names.campaign, specialAdCategories: ['HOUSING'], country: 'US', impressionsGoal: c.impressionsRequested },
    dailyBudgetCents: dailyBudgetCents(c.budgetCents, c.impressionsRequested),
    timeframeDays: timeframeDaysForImpressions(c.impressionsRequested).maxDays,
    targeting: targetingFor(c, listing),
    creative: {
      format: c.adFormat === 'carousel' ? 'carousel' : 'single',
      headline: headline.text.trim() || defaultHeadline(c.templateType, listing.city),
      primaryText: primary.text.trim(),
      // The line the wizard's preview shows: the advertiser first, so it survives the platform's truncation.
      description: adLinkDescription({ agentName: c.agentName, brokerage: c.agentBrokerage, subtitle: subtitle.text }),
      link,
      callToAction: callToActionType(c.callToAction),
      images: images as string[],
    },
    fairHousingFindings: headline.findings.length + primary.findings.length + subtitle.findings.length,
  };
}

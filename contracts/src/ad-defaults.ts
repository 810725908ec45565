/** Ad content defaults and placeholders of the creation wizard (spec 000 §3, §4, §9). */

export const TEMPLATE_TYPES = ['just-listed', 'just-sold'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export const AD_FORMATS = ['single', 'carousel'] as const;
export type AdFormat = (typeof AD_FORMATS)[number];
export const DEFAULT_AD_FORMAT: AdFormat = 'single';

export const CAROUSEL_MIN = 2;
export const CAROUSEL_MAX = 10;
export const CAROUSEL_MIN_MESSAGE = 'Carousel ads require at least 2 images';
export const CAROUSEL_MAX_MESSAGE = 'Carousel ads allow at most 10 images';

/** Call to action set by the wizard. */
export const DEFAULT_CALL_TO_ACTION = 'Learn more';
/** Call to action used when the campaign is purchased. */
export const PURCHASE_CALL_TO_ACTION = 'View Details';
export const DEFAULT_TARGET_AUDIENCE = 'Local Home Buyers (25-55)';

export const DEFAULT_SUBTITLE = 'Looking to buy, rent or sell?';
export const JUST_SOLD_SUBTITLE = 'Wondering what your home is worth?';

/** Description placeholders shown while (re)generating ad copy, and after a failure. */
export const AD_COPY_PLACEHOLDERS = {
  generating: 'Generating optimized ad copy...',
  regenerating: 'Regenerating ad copy...',
  failed: 'Unable to generate optimized copy',
} as const;

const placeholderSet: ReadonlySet<string> = new Set(Object.values(AD_COPY_PLACEHOLDERS));

/** True when the text is one of the wizard's placeholders rather than real ad copy. */
export function isAdCopyPlaceholder(text: string | null | undefined): boolean {
  return typeof text === 'string' && placeholderSet.has(text.trim());
}

/** 'sold' (any case) → 'just-sold'; every other status (active, pending, …) → 'just-listed'. */
export function templateTypeForStatus(status: string | null | undefined): TemplateType {
  return (status ?? '').trim().toLowerCase() === 'sold' ? 'just-sold' : 'just-listed';
}

/** "Amazing Property in {city}", or "Just Sold in {city}" for just-sold. */
export function defaultHeadline(templateType: TemplateType, city: string): string {
  const c = city.trim();
  return templateType === 'just-sold' ? `Just Sold in ${c}` : `Amazing Property in ${c}`;
}

export function defaultSubtitle(templateType: TemplateType): string {
  return templateType === 'just-sold' ? JUST_SOLD_SUBTITLE : DEFAULT_SUBTITLE;
}

export interface AdContentDefaults {
  templateType: TemplateType;
  adFormat: AdFormat;
  headline: string;
  subtitle: string;
  callToAction: string;
  targetAudience: string;
}

/** The ad fields the wizard seeds when a listing is chosen. */
export function defaultAdContent(listing: { status?: string | null; city: string }): AdContentDefaults {
  const templateType = templateTypeForStatus(listing.status);
  return {
    templateType,
    adFormat: DEFAULT_AD_FORMAT,
    headline: defaultHeadline(templateType, listing.city),
    subtitle: defaultSubtitle(templateType),
    callToAction: DEFAULT_CALL_TO_ACTION,
    targetAudience: DEFAULT_TARGET_AUDIENCE,
  };
}

/**
 * "{agent name} · {brokerage}": the advertiser, as the ad names it (next to "Sponsored" in the preview),
 * because several states require the brokerage in the ad itself.
 */
export function advertiserLine(agentName: string | null | undefined, brokerage: string | null | undefined): string {
  return [agentName, brokerage].map((part) => part?.trim()).filter(Boolean).join(' · ');
}

/**
 * The ad's link description (the line under the headline): "{agent} · {brokerage} — {subtitle}". The
 * advertiser comes first so that it survives the platform's truncation. The launch sends exactly this,
 * and the wizard's preview shows exactly this.
 */
export function adLinkDescription(ad: { agentName: string | null | undefined; brokerage: string | null | undefined; subtitle: string | null | undefined }): string {
  return [advertiserLine(ad.agentName, ad.brokerage), ad.subtitle?.trim() ?? ''].filter(Boolean).join(' — ');
}

/** Which image placeholder a listing without photos gets: 'just sold' if sold, else 'just listed'. */
export function placeholderKindForStatus(status: string | null | undefined): 'just sold' | 'just listed' {
  return templateTypeForStatus(status) === 'just-sold' ? 'just sold' : 'just listed';
}

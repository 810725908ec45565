import type { TemplateType } from '@app/contracts';

/**
 * What the copywriters know about a listing: only facts, each possibly missing. Built from the
 * listings module's view of a listing (see listing-lookup.ts), so a copywriter never sees a row.
 */
export interface ListingFacts {
  templateType: TemplateType;
  city: string | null;
  state: string | null;
  /** Whole dollars. */
  price: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  squareFeet: number | null;
  propertyType: string | null;
  yearBuilt: number | null;
  garageSpaces: number | null;
  lotSizeSqFt: number | null;
  /** Features and amenities as short phrases ("pool", "updated kitchen"). */
  features: string[];
  /** The listing's remarks (MLS public remarks or the agent's description). */
  remarks: string | null;
}

const positive = (n: unknown): number | null => {
  const v = typeof n === 'string' ? Number(n.replace(/[$,\s]/g, '')) : n;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
};

const text = (s: unknown): string | null => (typeof s === 'string' && s.trim() ? s.trim() : null);

/** Amenity keys worth putting in an ad (RESO names, camelCased by the MLS mapping); heating, utilities, fees are not. */
const SELLING_KEYS = new Set([
  'interiorFeatures', 'exteriorFeatures', 'poolFeatures', 'view', 'waterfrontFeatures', 'communityFeatures',
  'patioAndPorchFeatures', 'lotFeatures', 'features', 'highlights',
]);
/** Flags that are selling points when true. */
const SELLING_FLAGS: Record<string, string> = {
  fireplace: 'fireplace', fireplaceYN: 'fireplace', pool: 'pool', poolPrivateYN: 'private pool', waterfront: 'waterfront', waterfrontYN: 'waterfront',
  view: 'views', viewYN: 'views', garage: 'garage', garageYN: 'garage', basement: 'basement',
};
/** Listed features too ordinary for an ad. */
const MUNDANE = /^(?:lighting|sidewalks?|rain gutters|storage|sliding doors|irrigation system|ceiling fans?|split bedroom|eating space in kitchen|other|none|see remarks)$/i;

const featureKey = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Amenities arrive as a list of phrases, or as the MLS mapping's object of lists and flags
 * ({ interiorFeatures: [...], fireplace: true, heating: [...] }); keep the selling points as short phrases.
 */
export function featurePhrases(amenities: unknown): string[] {
  const out: string[] = [];
  const add = (raw: string) => {
    const v = raw.replace(/\(s\)/gi, '').replace(/\s+/g, ' ').trim();
    if (!v || v.length > 60 || MUNDANE.test(v) || out.some((o) => featureKey(o) === featureKey(v))) return;
    out.push(v);
  };
  const addAll = (value: unknown) => {
    if (typeof value === 'string') value.split(/[,;|]/).forEach(add);
    else if (Array.isArray(value)) value.forEach((v) => typeof v === 'string' && add(v));
  };
  if (Array.isArray(amenities) || typeof amenities === 'string') addAll(amenities);
  else if (amenities && typeof amenities === 'object') {
    for (const [key, value] of Object.entries(amenities as Record<string, unknown>)) {
      if (value === true && SELLING_FLAGS[key]) add(SELLING_FLAGS[key]);
      else if (SELLING_KEYS.has(key)) addAll(value);
    }
  }
  return out;
}

/** Known selling points found in free-text remarks, in the words buyers search for. */
const REMARK_FEATURES: [RegExp, string | ((m: RegExpExecArray) => string)][] = [
  [/\b(?:private |heated |saltwater |in-?ground )?pool\b/i, 'pool'],
  [/\bwater ?front\b|\bon the water\b/i, 'waterfront setting'],
  [/\bocean ?views?\b|\bviews? of the ocean\b/i, 'ocean views'],
  [/\bmountain views?\b/i, 'mountain views'],
  [/\blake ?(?:front|views?)\b/i, 'lake views'],
  [/\bgolf course\b/i, 'golf course location'],
  [/\bopen (?:floor ?plan|concept|layout)\b/i, 'open floor plan'],
  [/\b(?:renovated|remodeled|updated|new) kitchen\b|\bkitchen (?:was |has been )?(?:renovated|remodeled|updated)\b/i, 'updated kitchen'],
  [/\bchef'?s kitchen\b|\bgourmet kitchen\b/i, "chef's kitchen"],
  [/\bquartz\b|\bgranite\b/i, 'stone countertops'],
  [/\bstainless(?: steel)? appliances\b/i, 'stainless appliances'],
  [/\bhardwood floors?\b|\bwood floors?\b/i, 'hardwood floors'],
  [/\bfireplace\b/i, 'fireplace'],
  [/\bvaulted ceilings?\b|\bhigh ceilings?\b/i, 'high ceilings'],
  [/\bwalk-?in closets?\b/i, 'walk-in closet'],
  [/\bprimary (?:suite|bedroom)\b|\bmaster (?:suite|bedroom)\b/i, 'spacious primary suite'],
  [/\b(?:fenced|large|huge|spacious|private) (?:back)?yard\b/i, 'large yard'],
  [/\bscreened (porch|lanai|patio)\b/i, (m) => `screened ${m[1].toLowerCase()}`],
  [/\bnew roof\b/i, 'new roof'],
  [/\bsolar panels?\b|\bsolar\b/i, 'solar panels'],
  [/\bsmart home\b/i, 'smart-home features'],
  [/\bhome office\b|\boffice space\b/i, 'home office'],
  [/\bbonus room\b/i, 'bonus room'],
  [/\bimpact (?:windows|glass)\b|\bhurricane (?:windows|shutters)\b/i, 'impact windows'],
  [/\bmove-?in ready\b|\bturn-?key\b/i, 'move-in ready condition'],
  [/\bcul-?de-?sac\b/i, 'cul-de-sac location'],
  [/\b(?:deck|patio|outdoor kitchen)\b/i, 'outdoor living space'],
];

export function featuresFromRemarks(remarks: string | null): string[] {
  if (!remarks) return [];
  const out: string[] = [];
  for (const [re, name] of REMARK_FEATURES) {
    const m = re.exec(remarks);
    if (m) out.push(typeof name === 'string' ? name : name(m));
  }
  return out;
}

/** The listing fields copywriting may use, as the listings module describes a listing. */
export interface ListingForCopy {
  city?: string | null;
  state?: string | null;
  price?: string | number | null;
  bedrooms?: number | string | null;
  bathrooms?: number | string | null;
  squareFeet?: number | string | null;
  propertyType?: string | null;
  yearBuilt?: number | null;
  garageSpaces?: number | null;
  lotSizeSqFt?: number | null;
  amenities?: unknown;
  description?: string | null;
}

export function listingFacts(listing: ListingForCopy, templateType: TemplateType): ListingFacts {
  const remarks = text(listing.description);
  // The remarks' selling points first: they are what the listing's author chose to highlight.
  const features = [...featuresFromRemarks(remarks), ...featurePhrases(listing.amenities)];
  const bedrooms = positive(listing.bedrooms);
  const bathrooms = positive(listing.bathrooms);
  const year = positive(listing.yearBuilt);
  return {
    templateType,
    city: text(listing.city),
    state: text(listing.state),
    price: positive(listing.price),
    bedrooms: bedrooms === null ? null : Math.round(bedrooms),
    bathrooms: bathrooms === null ? null : Math.round(bathrooms * 2) / 2,
    squareFeet: positive(listing.squareFeet),
    propertyType: text(listing.propertyType),
    yearBuilt: year && year >= 1600 && year <= 2100 ? year : null,
    garageSpaces: positive(listing.garageSpaces),
    lotSizeSqFt: positive(listing.lotSizeSqFt),
    features: features.filter((f, i) => features.findIndex((g) => featureKey(g) === featureKey(f)) === i).slice(0, 8),
    remarks,
  };
}

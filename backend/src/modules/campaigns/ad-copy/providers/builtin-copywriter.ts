import { formatPrice } from '@app/contracts';
import type { ListingFacts } from '../listing-facts';
import type { AdCopyProvider, WriteOptions } from './ad-copy-provider';

/**
 * The built-in copywriter: Facebook primary text from the listing's facts, no network.
 * Four variants for just-listed and four for just-sold; the service asks for variant n on the
 * n-th refresh, so consecutive refreshes never repeat. Every sentence that needs a missing fact
 * is left out rather than written with a blank ("undefined", "0 beds").
 */

type Sentence = string | null | false | undefined;

export const BUILTIN_VARIANTS = 4;

function noun(propertyType: string | null): string {
  const t = (propertyType ?? '').toLowerCase();
  if (/condo/.test(t)) return 'condo';
  if (/town ?(?:home|house)|row ?house/.test(t)) return 'townhome';
  if (/duplex|triplex|fourplex|quadplex|multi/.test(t)) return 'multi-family property';
  if (/manufactured|mobile/.test(t)) return 'manufactured home';
  if (/apartment/.test(t)) return 'apartment';
  if (/villa/.test(t)) return 'villa';
  return 'home';
}

const isLand = (f: ListingFacts) => /\b(?:land|lot|acreage)\b/i.test(f.propertyType ?? '');

const fmtBaths = (b: number) => (Number.isInteger(b) ? String(b) : b.toFixed(1));

/** "3-bed, 2-bath home with 1,850 sq ft", "2-bath condo", "home". */
function specs(f: ListingFacts): string {
  if (isLand(f)) return f.lotSizeSqFt ? `${formatPrice(f.lotSizeSqFt)} sq ft lot` : 'lot';
  const rooms = [f.bedrooms ? `${f.bedrooms}-bed` : null, f.bathrooms ? `${fmtBaths(f.bathrooms)}-bath` : null].filter(Boolean).join(', ');
  const size = f.squareFeet ? ` with ${formatPrice(f.squareFeet)} sq ft` : '';
  return `${rooms ? `${rooms} ` : ''}${noun(f.propertyType)}${size}`;
}

/** "a 3-bed…", "an 8-bed…", "an updated…". */
function withArticle(phrase: string): string {
  return `${/^(?:8|11|18|[aeiou])/i.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const price = (f: ListingFacts) => (f.price ? `$${formatPrice(f.price)}` : null);
const place = (f: ListingFacts) => (f.city && f.state ? `${f.city}, ${f.state}` : f.city ?? f.state);
const inPlace = (f: ListingFacts) => (place(f) ? ` in ${place(f)}` : '');
const inCity = (f: ListingFacts) => (f.city ? ` in ${f.city}` : f.state ? ` in ${f.state}` : '');
const top = (f: ListingFacts, n = 3) => f.features.slice(0, n).map((x) => x.toLowerCase());

const JUST_LISTED: ((f: ListingFacts) => Sentence[])[] = [
  (f) => [
    `Just listed${inPlace(f)}!`,
    `This ${specs(f)} is now available${price(f) ? ` at ${price(f)}` : ''}.`,
    top(f).length > 0 && `Highlights: ${joinList(top(f))}.`,
    'Schedule your private tour today.',
  ],
  (f) => [
    `New on the market${inCity(f)}: ${withArticle(specs(f))}${price(f) ? ` offered at ${price(f)}` : ''}.`,
    top(f).length > 0 && `You'll love the ${joinList(top(f))}.`,
    'Tap Learn More for photos and details.',
  ],
  (f) => [
    `🏡 Fresh listing alert${inCity(f)}!`,
    `${cap(withArticle(specs(f)))} just hit the market${price(f) ? ` at ${price(f)}` : ''}.`,
    top(f).length > 0 ? `Featuring ${joinList(top(f))}.` : f.yearBuilt ? `Built in ${f.yearBuilt}.` : null,
    "Homes like this don't last long, so message me to see it first.",
  ],
  (f) => [
    `Looking for your next home${inCity(f)}?`,
    `This ${specs(f)} just came on the market${price(f) ? ` at ${price(f)}` : ''}.`,
    top(f, 2).length > 0 && `Come see the ${joinList(top(f, 2))} for yourself.`,
    'Contact me today to schedule a showing.',
  ],
];

// Just sold: no price (a listing's price is not always the sale price), an invitation to sellers instead.
const JUST_SOLD: ((f: ListingFacts) => Sentence[])[] = [
  (f) => [`Just sold${inPlace(f)}!`, `This ${specs(f)} is officially sold.`, "Thinking about selling? I'd love to help you get results like this."],
  (f) => [
    `Another one sold${inCity(f)}! 🎉`,
    `${cap(withArticle(specs(f)))} just closed.`,
    f.city ? `Buyers are active in ${f.city} right now.` : 'Buyers are active in this market right now.',
    "Let's talk about what your home could sell for.",
  ],
  (f) => [
    `SOLD${inCity(f)}!`,
    `Congratulations to my clients on this ${specs(f)}.`,
    top(f, 2).length > 0 && `With its ${joinList(top(f, 2))}, it drew strong interest.`,
    "If you're considering a move, reach out for a free home valuation.",
  ],
  (f) => [
    `The ${f.city ?? 'local'} market is moving.`,
    `This ${specs(f)} just sold.`,
    'Wondering what your home is worth? Message me for a no-obligation market analysis.',
  ],
];

export function writeBuiltinCopy(facts: ListingFacts, variant: number): string {
  const set = facts.templateType === 'just-sold' ? JUST_SOLD : JUST_LISTED;
  const pick = set[((variant % set.length) + set.length) % set.length];
  return pick(facts)
    .filter((s): s is string => typeof s === 'string' && s.trim().length > 0)
    .join(' ');
}

export class BuiltinCopywriter implements AdCopyProvider {
  readonly name = 'builtin' as const;

  async write(facts: ListingFacts, { variant }: WriteOptions): Promise<string> {
    return writeBuiltinCopy(facts, variant);
  }
}

import { isHttpUrl, mlsIdParam, SQFT_PER_ACRE, type ListingStatus } from '@app/contracts';
import type { MlsListingInput } from '../listings';

/**
 * RESO Data Dictionary records → our listings. Pure functions, shared by the RESO Web API provider
 * and the demo MLS, so both load exactly the same way.
 *
 * A record is SKIPPED (and counted) when it is not an object or a required field is missing or of the
 * wrong type: ListingKey, the address, City, StateOrProvince, the price. A record whose StandardStatus
 * is neither active (Active, Coming Soon) nor Closed is IGNORED: it is a valid record we do not show.
 * Optional fields of the wrong type, or out of the columns' range, become null: one odd field should
 * not cost the agent a listing, and nothing reaches the database that it would refuse.
 */

export type MapOutcome =
  | { kind: 'listing'; listing: MlsListingInput }
  | { kind: 'ignored'; key: string | null; reason: string }
  | { kind: 'skipped'; key: string | null; reason: string };

export interface MappedBatch {
  listings: MlsListingInput[];
  /** Bad records (missing key, address or price; broken types). */
  skipped: number;
  /** Valid records in a status we do not load (pending, expired, withdrawn…). */
  ignored: number;
  /** The first few reasons records were skipped, for the log. */
  problems: string[];
}

export interface MappingOptions {
  /**
   * Same-origin photo paths accepted (the demo MLS serves /demo-mls/photos/…). A real MLS's Media
   * must be absolute http(s) URLs: a path would point at our own server.
   */
  localPhotoPrefix?: string;
}

/** Most photos kept per listing: the carousel uses 10; the wire stays small for agents with many listings. */
export const MAX_LISTING_PHOTOS = 25;
const MAX_PRICE_CENTS = 9_999_999_999; // decimal(10,2)
const INT4_MAX = 2_147_483_647;

type Rec = Record<string, unknown>;

/** RESO lookups come as "ComingSoon", "Coming Soon" or "coming-soon" depending on the server. */
export function lookupKey(value: unknown): string | null {
  return typeof value === 'string' ? value.replace(/[^a-z0-9]/gi, '').toLowerCase() || null : null;
}

export function statusFromReso(standardStatus: unknown): ListingStatus | null {
  const k = lookupKey(standardStatus);
  if (k === 'active' || k === 'comingsoon') return 'active';
  if (k === 'closed') return 'sold';
  return null;
}

/** Payments per year for RESO FeeFrequency; one-time and seasonal fees do not annualise. */
const PER_YEAR: Record<string, number> = {
  annually: 1,
  semiannually: 2,
  quarterly: 4,
  bimonthly: 6,
  monthly: 12,
  semimonthly: 24,
  biweekly: 26,
  weekly: 52,
  daily: 365,
};

export function annualFee(amount: number | null, frequency: unknown): number | null {
  const perYear = PER_YEAR[lookupKey(frequency) ?? ''];
  if (amount === null || !perYear) return null;
  return Math.round(amount * perYear * 100) / 100;
}

// ---------------------------------------------------------------- field readers

const BROKEN = Symbol('broken');
type Maybe<T> = T | null | typeof BROKEN;

/** A trimmed non-empty string, cut to `max`; numbers are accepted as their text. */
function text(v: unknown, max: number): Maybe<string> {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return BROKEN;
  const s = v.replace(/\s+/g, ' ').trim();
  return s ? s.slice(0, max) : null;
}

/** A finite number; numeric strings ("3", "2.5") are accepted, as some servers send them. */
function number(v: unknown): Maybe<number> {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : BROKEN;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return BROKEN;
}

const opt = <T>(v: Maybe<T>): T | null => (v === BROKEN ? null : v);

function intIn(v: unknown, min: number, max: number): number | null {
  const n = opt(number(v));
  if (n === null) return null;
  const i = Math.round(n);
  return i >= min && i <= max ? i : null;
}

function numIn(v: unknown, min: number, max: number, decimals: number): number | null {
  const n = opt(number(v));
  if (n === null || n < min || n > max) return null;
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

function date(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? m[0] : null;
}

function bool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'Y' || v === 'Yes') return true;
  if (v === 'false' || v === 'N' || v === 'No') return false;
  return null;
}

/** RESO multi-select lookups: a JSON array, or a comma-separated string on some servers. */
function list(v: unknown): string[] {
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') continue;
    const s = item.trim().slice(0, 100);
    if (s && !out.includes(s)) out.push(s);
  }
  return out.slice(0, 50);
}

function join(parts: unknown[]): string | null {
  const s = parts
    .map((p) => (typeof p === 'string' || typeof p === 'number' ? String(p).trim() : ''))
    .filter(Boolean)
    .join(' ');
  return s || null;
}

/** Street address: UnparsedAddress (without a trailing ", City, ST ZIP"), else the street parts. */
function streetAddress(r: Rec, city: string | null): Maybe<string> {
  const unparsed = text(r.UnparsedAddress, 500);
  if (unparsed === BROKEN) return BROKEN;
  if (unparsed) {
    const comma = unparsed.indexOf(',');
    const tail = comma > 0 ? unparsed.slice(comma + 1).toLowerCase() : '';
    const street = city && tail.includes(city.toLowerCase()) ? unparsed.slice(0, comma).trim() : unparsed;
    return street.slice(0, 255) || null;
  }
  const street = join([r.StreetNumber, r.StreetDirPrefix, r.StreetName, r.StreetSuffix, r.StreetDirSuffix]);
  if (!street || r.StreetName === undefined || r.StreetName === null) return null;
  const unit = text(r.UnitNumber, 20);
  return (unit && unit !== BROKEN ? `${street} #${unit}` : street).slice(0, 255);
}

function isPhoto(m: Rec): boolean {
  const category = lookupKey(m.MediaCategory);
  if (category) return category === 'photo';
  const mime = typeof m.MimeType === 'string' ? m.MimeType : typeof m.MediaType === 'string' ? m.MediaType : '';
  return /^image\//i.test(mime) || /^(jpe?g|png|gif|webp)$/i.test(mime);
}

function usablePhotoUrl(url: string, opts: MappingOptions): boolean {
  if (!url || url.length > 2048 || /\s/.test(url)) return false;
  if (opts.localPhotoPrefix && url.startsWith(opts.localPhotoPrefix)) return !url.includes('..') && !url.includes('\\');
  return isHttpUrl(url);
}

/** Photos in `Order`, only images (MediaCategory Photo, or an image MIME type when there is no category). */
export function photoUrls(media: unknown, opts: MappingOptions = {}): string[] {
  if (!Array.isArray(media)) return [];
  const photos = media
    .filter((m): m is Rec => !!m && typeof m === 'object' && !Array.isArray(m))
    .filter(isPhoto)
    .map((m, i) => ({ url: typeof m.MediaURL === 'string' ? m.MediaURL.trim() : '', order: opt(number(m.Order)) ?? Infinity, i }))
    .filter((p) => usablePhotoUrl(p.url, opts))
    .sort((a, b) => a.order - b.order || a.i - b.i);
  const out: string[] = [];
  for (const p of photos) if (!out.includes(p.url)) out.push(p.url);
  return out.slice(0, MAX_LISTING_PHOTOS);
}

function bathrooms(r: Rec): string | null {
  let n = numIn(r.BathroomsTotalInteger, 0, 99, 0);
  if (n === null) {
    // Some feeds leave the total empty; full + half baths says the same.
    const full = numIn(r.BathroomsFull, 0, 99, 0);
    const half = numIn(r.BathroomsHalf, 0, 99, 0);
    if (full !== null) n = full + (half ?? 0) * 0.5;
  }
  if (n === null || n > 99) return null;
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

function lot(r: Rec): { lotSize: string | null; lotSizeSqFt: number | null } {
  const acres = numIn(r.LotSizeAcres, 0, 1_000_000, 4);
  let sqft = intIn(r.LotSizeSquareFeet, 0, INT4_MAX);
  if (sqft === null && acres !== null) sqft = Math.min(INT4_MAX, Math.round(acres * SQFT_PER_ACRE));
  const a = acres ?? (sqft !== null ? Math.round((sqft / SQFT_PER_ACRE) * 100) / 100 : null);
  // lotSize: acres as a decimal string ("0.25"); lotSizeSqFt: square feet.
  return { lotSize: a === null ? null : String(Math.round(a * 100) / 100), lotSizeSqFt: sqft };
}

function amenities(r: Rec): Record<string, unknown> {
  const fee = numIn(r.AssociationFee, 0, 10_000_000, 2);
  const frequency = opt(text(r.AssociationFeeFrequency, 50));
  const out: Record<string, unknown> = {
    heating: list(r.Heating),
    cooling: list(r.Cooling),
    appliances: list(r.Appliances),
    interiorFeatures: list(r.InteriorFeatures),
    exteriorFeatures: list(r.ExteriorFeatures),
    parkingFeatures: list(r.ParkingFeatures),
    utilities: list(r.Utilities),
    fireplace: bool(r.FireplaceYN),
    associationFee: fee,
    associationFeeFrequency: fee === null ? null : frequency,
    associationFeeAnnual: annualFee(fee, frequency),
  };
  // Keep only what the record says.
  for (const [k, v] of Object.entries(out)) if (v === null || (Array.isArray(v) && v.length === 0)) delete out[k];
  return out;
}

function skipped(key: string | null, reason: string): MapOutcome {
  return { kind: 'skipped', key, reason };
}

/** One RESO Property record (with its expanded Media) → a listing, or why not. */
export function mapResoProperty(raw: unknown, opts: MappingOptions = {}): MapOutcome {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return skipped(null, 'not an object');
  const r = raw as Rec;
  const key = text(r.ListingKey, 1000);
  const keyForLog = key === BROKEN ? null : key;
  const status = statusFromReso(r.StandardStatus);
  if (typeof r.StandardStatus !== 'string') return skipped(keyForLog, 'StandardStatus missing');
  if (!status) return { kind: 'ignored', key: keyForLog, reason: `status ${r.StandardStatus}` };
  if (!key || key === BROKEN) return skipped(null, 'ListingKey missing');
  // Our mlsId is also the public page's address (/listing/{mlsId}): it must be a safe id.
  if (!mlsIdParam.safeParse(key).success) return skipped(key, 'ListingKey is not a usable id');

  const city = text(r.City, 100);
  if (!city || city === BROKEN) return skipped(key, 'City missing');
  const state = text(r.StateOrProvince, 100);
  if (!state || state === BROKEN) return skipped(key, 'StateOrProvince missing');
  const address = streetAddress(r, city);
  if (!address || address === BROKEN) return skipped(key, 'address missing');

  // ListPrice for active listings; ClosePrice for sold ones, or ListPrice when the MLS has no ClosePrice.
  const listPrice = number(r.ListPrice);
  const closePrice = status === 'sold' ? number(r.ClosePrice) : null;
  if (listPrice === BROKEN || closePrice === BROKEN) return skipped(key, 'price is not a number');
  const price = closePrice ?? listPrice;
  if (price === null) return skipped(key, 'price missing');
  const priceCents = Math.round(price * 100);
  if (priceCents <= 0 || priceCents > MAX_PRICE_CENTS) return skipped(key, 'price out of range');

  const images = photoUrls(r.Media, opts);
  const mlsName = opt(text(r.OriginatingSystemName, 255));
  const brokerage = opt(text(r.ListOfficeName, 255));
  const broker = opt(text(r.ListAgentFullName, 255));
  const lat = numIn(r.Latitude, -90, 90, 6);
  const lng = numIn(r.Longitude, -180, 180, 6);
  const hasPoint = lat !== null && lng !== null && !(lat === 0 && lng === 0);

  return {
    kind: 'listing',
    listing: {
      mlsId: key,
      address,
      city,
      state: state.length === 2 ? state.toUpperCase() : state,
      postalCode: opt(text(r.PostalCode, 20)),
      priceCents,
      bedrooms: intIn(r.BedroomsTotal, 0, 100),
      bathrooms: bathrooms(r),
      squareFeet: intIn(r.LivingArea, 1, 10_000_000),
      status,
      imageUrl: images[0] ?? null,
      images,
      description: opt(text(r.PublicRemarks, 10_000)),
      ...lot(r),
      yearBuilt: intIn(r.YearBuilt, 1600, 2100),
      garageSpaces: intIn(r.GarageSpaces, 0, 100),
      propertyType: opt(text(r.PropertySubType, 100)) ?? opt(text(r.PropertyType, 100)),
      amenities: amenities(r),
      elementarySchool: opt(text(r.ElementarySchool, 255)),
      middleSchool: opt(text(r.MiddleOrJuniorSchool, 255)),
      highSchool: opt(text(r.HighSchool, 255)),
      schoolDistrict: opt(text(r.HighSchoolDistrict, 255)),
      latitude: hasPoint ? lat : null,
      longitude: hasPoint ? lng : null,
      listDate: date(r.ListingContractDate),
      soldDate: status === 'sold' ? date(r.CloseDate) : null,
      daysOnMarket: intIn(r.DaysOnMarket, 0, 36_500),
      originatingSystemName: mlsName,
      mlsCompliance: {
        mlsName,
        brokerage,
        broker,
        disclaimer: `Listing data provided by ${mlsName ?? 'the MLS'}${brokerage ? `, courtesy of ${brokerage}` : ''}. Information is deemed reliable but not guaranteed.`,
      },
    },
  };
}

/** A page (or the whole set) of RESO Property records → listings, with counts of what was left out. */
export function mapResoProperties(records: readonly unknown[], opts: MappingOptions = {}): MappedBatch {
  const batch: MappedBatch = { listings: [], skipped: 0, ignored: 0, problems: [] };
  for (const raw of records) {
    const out = mapResoProperty(raw, opts);
    if (out.kind === 'listing') batch.listings.push(out.listing);
    else if (out.kind === 'ignored') batch.ignored++;
    else {
      batch.skipped++;
      if (batch.problems.length < 10) batch.problems.push(`${out.key ?? '(no key)'}: ${out.reason}`);
    }
  }
  return batch;
}

/** Display formatting shared by the public pages, dashboard and admin (spec 001 §2, §9). */

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function toFiniteNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const cleaned = value.replace(/[$,\s]/g, '');
  if (cleaned === '') return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
}

/**
 * Whole dollars with thousands separators, no currency sign: 12500 → "12,500",
 * "450000.00" → "450,000". Cents are rounded (Math.round). Returns "" when the value is
 * missing or not a number.
 */
export function formatPrice(value: number | string | null | undefined): string {
  const n = toFiniteNumber(value);
  return n === null ? '' : wholeNumber.format(Math.round(n));
}

/** formatPrice with a dollar sign: 12500 → "$12,500", −5 → "-$5". "" when not a number. */
export function formatUsd(value: number | string | null | undefined): string {
  const n = toFiniteNumber(value);
  if (n === null) return '';
  const rounded = Math.round(n);
  return `${rounded < 0 ? '-' : ''}$${wholeNumber.format(Math.abs(rounded))}`;
}

/**
 * An amount in cents as money: whole dollars without decimals ("$299"), otherwise to the cent ("$276.53").
 * Credits and what a checkout charges after one are exact to the cent; formatUsd rounds to the dollar.
 */
export function formatCents(cents: number): string {
  if (!Number.isFinite(cents)) return '';
  const abs = Math.abs(Math.round(cents));
  const sign = cents < 0 ? '-' : '';
  if (abs % 100 === 0) return `${sign}$${wholeNumber.format(abs / 100)}`;
  return `${sign}$${wholeNumber.format(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}

/** One decimal, trailing ".0" dropped: 3.4 → "3.4", 50 → "50". */
function oneDecimal(x: number): string {
  return String(Math.round(x * 10) / 10);
}

/**
 * Compact counts: ≥ 1,000,000 → "3.4M", ≥ 1,000 → "1.2K", else the whole number.
 * One decimal, rounded, with a trailing ".0" dropped so the default goal 50000 shows "50K"
 * as the spec does (1000 → "1K", 1500 → "1.5K"). A value that rounds up to 1000K is shown as "1M".
 */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const sign = value < 0 ? '-' : '';
  const a = Math.abs(value);
  if (a >= 1_000_000) return `${sign}${oneDecimal(a / 1_000_000)}M`;
  if (a >= 1_000) {
    const k = Math.round(a / 100) / 10;
    return k >= 1000 ? `${sign}${oneDecimal(a / 1_000_000)}M` : `${sign}${k}K`;
  }
  return `${sign}${Math.round(a)}`;
}

export const SQFT_PER_ACRE = 43560;

/** Square feet → acres (unrounded). */
export function sqftToAcres(sqft: number): number {
  return sqft / SQFT_PER_ACRE;
}

/** Acres to 2 decimals for display: 10890 → "0.25". */
export function formatAcres(sqft: number): string {
  return sqftToAcres(sqft).toFixed(2);
}

/** Price per square foot, rounded to whole dollars; null when either value is missing or sqft ≤ 0. */
export function pricePerSqft(
  price: number | string | null | undefined,
  squareFeet: number | null | undefined,
): number | null {
  const p = toFiniteNumber(price);
  if (p === null || squareFeet === null || squareFeet === undefined || !(squareFeet > 0)) return null;
  return Math.round(p / squareFeet);
}

/** Up to two initials for an avatar: "jane q. doe" → "JD", "Cher" → "C", "" → "". */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = words[0][0];
  const last = words.length > 1 ? words[words.length - 1][0] : '';
  return (first + last).toUpperCase();
}

export const MAP_BBOX_DELTA = 0.01;

export interface BoundingBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The embedded map's box: latitude and longitude ± 0.01 degrees (rounded to 6 decimals). */
export function mapBoundingBox(latitude: number, longitude: number, delta = MAP_BBOX_DELTA): BoundingBox {
  return {
    minLat: round6(latitude - delta),
    minLng: round6(longitude - delta),
    maxLat: round6(latitude + delta),
    maxLng: round6(longitude + delta),
  };
}

/** "minLng,minLat,maxLng,maxLat", the order OpenStreetMap's embed `bbox` parameter expects. */
export function bboxParam(box: BoundingBox): string {
  return [box.minLng, box.minLat, box.maxLng, box.maxLat].join(',');
}

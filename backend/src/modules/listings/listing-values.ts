/** Conversions between the wire's strings and the columns (money is integer cents; DESIGN §2). */

/** "450000" → 45000000, "450000.5" → 45000050. The input is already a valid price string (contracts). */
export function priceToCents(price: string): number {
  const [whole, frac = ''] = price.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2));
}

/** 45000000 → "450000", 45000050 → "450000.50". */
export function centsToPrice(cents: number | string): string {
  const n = typeof cents === 'string' ? Number(cents) : cents;
  const whole = Math.trunc(n / 100);
  const rest = Math.abs(n % 100);
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0')}`;
}

/** Bathrooms on the wire: at least one decimal ("2.0", "2.5"), two when needed ("2.25"). */
export function formatBathrooms(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Math.round(Number(value) * 100) / 100;
  if (!Number.isFinite(n)) return null;
  return Number.isInteger(n * 10) ? n.toFixed(1) : n.toFixed(2);
}

/** A date column as YYYY-MM-DD. pg builds Dates at local midnight, so read them with local getters. */
export function formatDateOnly(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  const y = value.getFullYear();
  const m = String(value.getMonth() + 1).padStart(2, '0');
  const d = String(value.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function toNumberOrNull(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

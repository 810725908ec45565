import { z } from 'zod';
import { isUsStateCode } from '../states.js';

/**
 * Building blocks for the schemas. Every string is trimmed and length-bounded, so the same
 * schema is safe as the server's request validation and as the UI's form validation.
 */

export const LIMITS = {
  name: 255,
  email: 254,
  password: 200,
  phone: 40,
  brokerage: 255,
  mlsId: 100,
  address: 255,
  city: 100,
  state: 100,
  url: 2048,
  headline: 255,
  subtitle: 255,
  description: 5000,
  callToAction: 50,
  targetAudience: 255,
  message: 5000,
  secret: 500,
  topic: 100,
  helpText: 4000,
} as const;

export const MAX_ID = 2_147_483_647; // serial / int4

export const INVALID_ID_MESSAGE = 'Must be a positive whole number';
export const INVALID_STATE_MESSAGE = 'Please select a valid US state';
export const VALID_EMAIL_MESSAGE = 'Please enter a valid email address';
export const INVALID_PHONE_MESSAGE = 'Please enter a valid phone number';
export const INVALID_IMAGE_MESSAGE = 'Image must be an http(s) URL or an uploaded /objects/ path';

export const CONTROL_CHARACTERS_MESSAGE = 'Must not contain control characters';

/** C0 controls and DEL, except tab, line feed and carriage return (multi-line text keeps those). */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text a person could have typed: no control characters (NUL included), no lone UTF-16 surrogates. */
export function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value) && !LONE_SURROGATE.test(value);
}

/**
 * Free text: a string without control characters or broken Unicode, trimmed and bounded. The base of
 * every text field (required or optional), so such input is a 400 with a field message everywhere.
 */
export function textSchema(max: number, message?: string) {
  return z
    .string(message ? { error: message } : undefined)
    .trim()
    .max(max, { error: tooLongMessage(max) })
    .refine(isPlainText, { error: CONTROL_CHARACTERS_MESSAGE });
}

export function tooLongMessage(max: number): string {
  return `Must be at most ${max} characters`;
}

/** Required text: trimmed, non-empty (message for missing, non-string and blank alike), bounded. */
export function requiredText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: tooLongMessage(max) })
    .refine(isPlainText, { error: CONTROL_CHARACTERS_MESSAGE });
}

/**
 * Optional text for update payloads and forms: trimmed and bounded; "" and null become null
 * (meaning "clear"), absent stays undefined (meaning "leave as is").
 */
export function optionalText(max: number) {
  return textSchema(max)
    .nullish()
    .transform((v) => (v === '' ? null : v));
}

/** Positive int4 id, as a JSON number. */
export const idSchema = z
  .number({ error: INVALID_ID_MESSAGE })
  .int({ error: INVALID_ID_MESSAGE })
  .min(1, { error: INVALID_ID_MESSAGE })
  .max(MAX_ID, { error: INVALID_ID_MESSAGE });

/**
 * An id from a route parameter or a body: a positive integer, or a string of digits
 * ("12" → 12). "abc", "1.5", "0x10", "1e3", "" and " 12" are rejected. Output is a number.
 */
export const idParam = z
  .union([z.number(), z.string().regex(/^\d{1,10}$/, { error: INVALID_ID_MESSAGE })], { error: INVALID_ID_MESSAGE })
  .transform((v) => (typeof v === 'string' ? Number(v) : v))
  .pipe(idSchema);

/** A listing's public id in routes (/listing/{mlsId}); MLS keys and MANUAL-{timestamp}. */
export const mlsIdParam = z
  .string({ error: 'MLS ID is required' })
  .trim()
  .min(1, { error: 'MLS ID is required' })
  .max(LIMITS.mlsId, { error: tooLongMessage(LIMITS.mlsId) })
  .regex(/^[A-Za-z0-9._:-]+$/, { error: 'Invalid MLS ID' });

/** One of the 50 state codes; trimmed and upper-cased first ("fl" → "FL"). */
export function stateCodeField(requiredMessage = 'State is required') {
  return z
    .string({ error: requiredMessage })
    .trim()
    .toUpperCase()
    .min(1, { error: requiredMessage })
    .refine(isUsStateCode, { error: INVALID_STATE_MESSAGE });
}

/**
 * A required email: trimmed and lower-cased (so logins and lookups are case-insensitive),
 * then checked. One message for missing, blank and malformed.
 */
export function emailField(message: string = VALID_EMAIL_MESSAGE) {
  return z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .max(LIMITS.email, { error: message })
    .regex(z.regexes.email, { error: message });
}

/** An optional email: "" and null become null, absent stays undefined, anything else must be valid. */
export function optionalEmailField(message: string = VALID_EMAIL_MESSAGE) {
  return z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .max(LIMITS.email, { error: message })
    .refine((v) => v === '' || z.regexes.email.test(v), { error: message })
    .nullish()
    .transform((v) => (v === '' ? null : v));
}

/** Optional phone: digits, spaces and + ( ) - . x only, at most 40; "" and null become null. */
export function optionalPhoneField() {
  return z
    .string({ error: INVALID_PHONE_MESSAGE })
    .trim()
    .max(LIMITS.phone, { error: tooLongMessage(LIMITS.phone) })
    .regex(/^[0-9+().\-\sxX]*$/, { error: INVALID_PHONE_MESSAGE })
    .nullish()
    .transform((v) => (v === '' ? null : v));
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** True for an absolute URL whose scheme is in `protocols` (e.g. ['https:']) and that has a host. */
export function isAbsoluteUrl(value: string, protocols: readonly string[]): boolean {
  if (/\s/.test(value)) return false;
  const u = parseUrl(value);
  return u !== null && protocols.includes(u.protocol) && u.hostname !== '';
}

export function isHttpUrl(value: string): boolean {
  return isAbsoluteUrl(value, ['http:', 'https:']);
}

export function isHttpsUrl(value: string): boolean {
  return isAbsoluteUrl(value, ['https:']);
}

/** An uploaded object's path: /objects/uploads/{uuid}, nothing before, after or between. */
const UPLOADED_OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A photo of the demo MLS (the embedded default's listings): /demo-mls/photos/{file}, one plain file name. */
const DEMO_MLS_PHOTO_PATH = /^\/demo-mls\/photos\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9]+)?$/;

/**
 * A same-origin image path we serve ourselves: an uploaded object or a demo MLS photo, exactly. Anything else
 * (`/objects/uploads/../../api/…`, encoded dots, a query, another route) is refused: the server fetches these
 * paths from itself (share images, ad images), so one must never name another route.
 */
export function isOwnImagePath(value: string): boolean {
  return UPLOADED_OBJECT_PATH.test(value) || DEMO_MLS_PHOTO_PATH.test(value);
}

/**
 * Image reference: an absolute http(s) URL (MLS photos) or one of our own image paths (`isOwnImagePath`:
 * /objects/uploads/{id}, /demo-mls/photos/{file}). "//host", "javascript:", "data:", relative paths and any
 * other path are rejected. The one rule for the forms and the server.
 */
export function isImageRef(value: string): boolean {
  if (value.startsWith('/')) return isOwnImagePath(value);
  return isHttpUrl(value);
}

export const imageRefSchema = z
  .string({ error: INVALID_IMAGE_MESSAGE })
  .trim()
  .min(1, { error: INVALID_IMAGE_MESSAGE })
  .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
  .refine(isImageRef, { error: INVALID_IMAGE_MESSAGE });

/** Optional image reference: "" and null become null, absent stays undefined. */
export const optionalImageRefSchema = z
  .string({ error: INVALID_IMAGE_MESSAGE })
  .trim()
  .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
  .refine((v) => v === '' || isImageRef(v), { error: INVALID_IMAGE_MESSAGE })
  .nullish()
  .transform((v) => (v === '' ? null : v));

/** Optional https URL for settings: "" and null become null (cleared), absent stays undefined. */
export function optionalHttpsUrlField(message: string) {
  return z
    .string({ error: message })
    .trim()
    .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
    .refine((v) => v === '' || isHttpsUrl(v), { error: message })
    .nullish()
    .transform((v) => (v === '' ? null : v));
}

const DECIMAL_10_2 = /^(?:0|[1-9]\d{0,7})(?:\.\d{1,2})?$/;

/** A positive decimal string with at most 2 decimals that fits decimal(10,2): "450000", "450000.50". */
export function isPriceString(value: string): boolean {
  return DECIMAL_10_2.test(value) && Number(value) > 0;
}

/** Parses a form number: numbers pass, digit strings become numbers, anything else NaN. */
export function toFormNumber(value: number | string | null | undefined): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return NaN;
  const s = value.trim();
  return /^\d+(?:\.\d+)?$/.test(s) ? Number(s) : NaN;
}

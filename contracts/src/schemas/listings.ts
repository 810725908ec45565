import { z } from 'zod';
import { MAX_LISTING_FILES } from '../uploads.js';
import { DEFAULT_LISTING_STATE, isUsStateCode } from '../states.js';
import { LISTING_STATUSES } from '../listing-rules.js';
import {
  LIMITS,
  idParam,
  imageRefSchema,
  isPriceString,
  optionalImageRefSchema,
  requiredText,
  stateCodeField,
  toFormNumber,
  tooLongMessage,
} from './common.js';

export const LISTING_MESSAGES = {
  fullName: 'Full name is required',
  state: 'State is required',
  address: 'Address is required',
  city: 'City is required',
  price: 'Price is required',
  priceInvalid: 'Price must be a positive amount with at most 2 decimals',
  bedrooms: 'Bedrooms must be 0 or more',
  bedroomsWhole: 'Bedrooms must be a whole number',
  bathrooms: 'Bathrooms is required',
  bathroomsInvalid: 'Bathrooms must be a number such as 2.0',
  squareFeet: 'Square feet must be greater than 0',
  squareFeetWhole: 'Square feet must be a whole number',
  status: 'Please select a listing status',
  tooManyImages: `A listing can have at most ${MAX_LISTING_FILES} images`,
} as const;

export const MAX_BEDROOMS = 100;
export const MAX_SQUARE_FEET = 10_000_000;

const BATHROOMS = /^\d{1,2}(?:\.\d{1,2})?$/;

/** Listing price as typed: "$450,000" and "450000" both become "450000". */
const formPrice = z
  .string({ error: LISTING_MESSAGES.price })
  .trim()
  .transform((v) => v.replace(/[$,\s]/g, ''))
  .pipe(
    z
      .string()
      .min(1, { error: LISTING_MESSAGES.price })
      .refine(isPriceString, { error: LISTING_MESSAGES.priceInvalid }),
  );

/** Listing price on the wire: decimal string, positive, ≤ 2 decimals, fits decimal(10,2). */
export const listingPriceSchema = z
  .string({ error: LISTING_MESSAGES.price })
  .trim()
  .min(1, { error: LISTING_MESSAGES.price })
  .refine(isPriceString, { error: LISTING_MESSAGES.priceInvalid });

const bathroomsSchema = z
  .string({ error: LISTING_MESSAGES.bathrooms })
  .trim()
  .min(1, { error: LISTING_MESSAGES.bathrooms })
  .regex(BATHROOMS, { error: LISTING_MESSAGES.bathroomsInvalid });

const bedroomsNumber = z
  .number({ error: LISTING_MESSAGES.bedrooms })
  .min(0, { error: LISTING_MESSAGES.bedrooms })
  .int({ error: LISTING_MESSAGES.bedroomsWhole })
  .max(MAX_BEDROOMS, { error: `Bedrooms must be at most ${MAX_BEDROOMS}` });

const squareFeetNumber = z
  .number({ error: LISTING_MESSAGES.squareFeet })
  .min(1, { error: LISTING_MESSAGES.squareFeet })
  .int({ error: LISTING_MESSAGES.squareFeetWhole })
  .max(MAX_SQUARE_FEET, { error: `Square feet must be at most ${MAX_SQUARE_FEET}` });

const statusSchema = z.enum(LISTING_STATUSES, { error: LISTING_MESSAGES.status });

const imagesSchema = z.array(imageRefSchema).max(MAX_LISTING_FILES, { error: LISTING_MESSAGES.tooManyImages });

/**
 * Manual listing form ("Enter Your Listing Information"). Number inputs may deliver strings:
 * bedrooms "", null, undefined or NaN become 0; squareFeet "" is invalid (must be ≥ 1).
 */
export const manualListingFormSchema = z.object({
  fullName: requiredText(LISTING_MESSAGES.fullName, LIMITS.name),
  state: stateCodeField(LISTING_MESSAGES.state),
  address: requiredText(LISTING_MESSAGES.address, LIMITS.address),
  city: requiredText(LISTING_MESSAGES.city, LIMITS.city),
  price: formPrice,
  bedrooms: z
    .union([z.number(), z.nan(), z.string()], { error: LISTING_MESSAGES.bedrooms })
    .nullish()
    .transform((v) =>
      v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v)) ? 0 : toFormNumber(v),
    )
    .pipe(bedroomsNumber),
  bathrooms: bathroomsSchema,
  squareFeet: z
    .union([z.number(), z.nan(), z.string()], { error: LISTING_MESSAGES.squareFeet })
    .transform((v) => toFormNumber(v))
    .pipe(squareFeetNumber),
  status: statusSchema,
  images: imagesSchema.optional(),
});
export type ManualListingFormValues = z.infer<typeof manualListingFormSchema>;
export type ManualListingFormInput = z.input<typeof manualListingFormSchema>;

/** Defaults: state FL (or the agent's state), 3 bedrooms, "2.0" bathrooms, 1500 sq ft, active. */
export function manualListingDefaults(agent?: {
  name?: string | null;
  state?: string | null;
}): ManualListingFormInput & { images: string[] } {
  const agentState = agent?.state?.trim().toUpperCase();
  return {
    fullName: agent?.name?.trim() ?? '',
    state: agentState && isUsStateCode(agentState) ? agentState : DEFAULT_LISTING_STATE,
    address: '',
    city: '',
    price: '',
    bedrooms: 3,
    bathrooms: '2.0',
    squareFeet: 1500,
    status: 'active',
    images: [],
  };
}

/**
 * POST /api/listings. price is a decimal string (decimal(10,2)); numbers are real numbers here
 * (this is the wire, not a form). images default to [], imageUrl to null. The server may
 * generate mlsId (MANUAL-{timestamp}) when it is absent.
 */
export const listingCreateSchema = z.object({
  agentId: idParam,
  address: requiredText(LISTING_MESSAGES.address, LIMITS.address),
  city: requiredText(LISTING_MESSAGES.city, LIMITS.city),
  state: stateCodeField(LISTING_MESSAGES.state),
  price: listingPriceSchema,
  bedrooms: bedroomsNumber,
  bathrooms: bathroomsSchema,
  squareFeet: squareFeetNumber,
  status: statusSchema,
  imageUrl: optionalImageRefSchema.transform((v) => v ?? null),
  images: imagesSchema.default([]),
  mlsId: z
    .string()
    .trim()
    .max(LIMITS.mlsId, { error: tooLongMessage(LIMITS.mlsId) })
    .regex(/^[A-Za-z0-9._:-]*$/, { error: 'Invalid MLS ID' })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type ListingCreatePayload = z.infer<typeof listingCreateSchema>;
export type ListingCreateInput = z.input<typeof listingCreateSchema>;

export const AGENT_LISTINGS_PAGE_DEFAULT = 100;
export const AGENT_LISTINGS_PAGE_MAX = 500;
/** Where the previous page ended, in the loader's order: group (0 active, 1 sold), date, id. Opaque to clients. */
const LISTINGS_CURSOR = /^[01]\.\d{4}-\d{2}-\d{2}\.\d{1,12}$/;

/** GET /api/agents/{id}/listings?limit=&cursor= — pages in the loader's order (active first, newest first). */
export const agentListingsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${AGENT_LISTINGS_PAGE_MAX}` })
    .int({ error: `limit must be a whole number from 1 to ${AGENT_LISTINGS_PAGE_MAX}` })
    .min(1, { error: `limit must be a whole number from 1 to ${AGENT_LISTINGS_PAGE_MAX}` })
    .max(AGENT_LISTINGS_PAGE_MAX, { error: `limit must be a whole number from 1 to ${AGENT_LISTINGS_PAGE_MAX}` })
    .default(AGENT_LISTINGS_PAGE_DEFAULT),
  cursor: z.string().regex(LISTINGS_CURSOR, { error: 'Invalid cursor' }).optional(),
});
export type AgentListingsQuery = z.infer<typeof agentListingsQuerySchema>;

import { z } from 'zod';
import { LISTING_STATUSES } from '../listing-rules.js';
import { isoDateTimeSchema } from './common.js';

const dateOnlySchema = z.iso.date();
const nullableString = z.string().nullable();
const stringList = z.array(z.string());

/**
 * The listing's core (spec 000 §3): the facts every answer that shows a listing shares, written once. The
 * summary, the full view, the public listing, the lead delivery's listing and the dashboard's Property card
 * derive from it (`.extend`, `.pick`, `.omit`); the backend's `presentListingCore(row)` makes it.
 * Price and bathrooms travel as decimal strings ("450000", "2.5").
 */
export const listingCoreSchema = z.object({
  id: z.number().int().positive(),
  /** The MLS number, or the id given to a manually entered listing: /listing/{mlsId} is its public page. */
  mlsId: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: nullableString,
  /** Decimal string, e.g. "450000". */
  price: z.string(),
  bedrooms: z.number().int().nullable(),
  /** Decimal string, e.g. "2.0". */
  bathrooms: nullableString,
  squareFeet: z.number().int().nullable(),
  status: z.enum(LISTING_STATUSES),
  imageUrl: nullableString,
  images: stringList,
  description: nullableString,
});
export type ListingCore = z.infer<typeof listingCoreSchema>;

/**
 * One listing as the wizard's loader lists it (GET /api/agents/{id}/listings): what step 1 shows, and what
 * the next steps take from the chosen listing (photos, description for the ad copy). Not the full listing.
 */
export const listingSummarySchema = listingCoreSchema.extend({
  agentId: z.number().int().positive(),
});
export type ListingSummary = z.infer<typeof listingSummarySchema>;

/** A listing on the wire, whole (GET /api/listings/{id}, the campaign's listing): the summary and the MLS's details. */
export const listingViewSchema = listingSummarySchema.extend({
  lotSize: nullableString,
  lotSizeSqFt: z.number().nullable(),
  yearBuilt: z.number().int().nullable(),
  garageSpaces: z.number().nullable(),
  propertyType: nullableString,
  amenities: z.record(z.string(), z.unknown()),
  elementarySchool: nullableString,
  middleSchool: nullableString,
  highSchool: nullableString,
  schoolDistrict: nullableString,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  listDate: dateOnlySchema.nullable(),
  soldDate: dateOnlySchema.nullable(),
  daysOnMarket: z.number().int().nullable(),
  zillowUrl: nullableString,
  originatingSystemName: nullableString,
  /** What the MLS requires next to its listings (its name, the brokerage, a disclaimer). */
  mlsCompliance: z.object({
    mlsName: z.string().nullable().optional(),
    brokerage: z.string().nullable().optional(),
    broker: z.string().nullable().optional(),
    disclaimer: z.string().nullable().optional(),
  }),
  createdAt: isoDateTimeSchema,
});
export type ListingView = z.infer<typeof listingViewSchema>;

/** GET /api/agents/{id}/listings: one page, in the loader's order (active first, newest first). */
export const agentListingsPageSchema = z.object({
  listings: z.array(listingSummarySchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AgentListingsPage = z.infer<typeof agentListingsPageSchema>;

/**
 * The listing as a buyer sees it (spec 001 §3 "Listing response"): the core and the public facts of the full
 * view (no agent internals, no timestamps but the data date), with the amenities flattened.
 */
export const publicListingSchema = listingCoreSchema.extend({
  /** imageUrl then images, without duplicates: what the gallery shows. */
  photos: stringList,
  ...listingViewSchema.pick({
    yearBuilt: true,
    garageSpaces: true,
    propertyType: true,
    lotSize: true,
    lotSizeSqFt: true,
    listDate: true,
    daysOnMarket: true,
    latitude: true,
    longitude: true,
    elementarySchool: true,
    middleSchool: true,
    highSchool: true,
    schoolDistrict: true,
  }).shape,
  heating: stringList,
  cooling: stringList,
  appliances: stringList,
  interiorFeatures: stringList,
  exteriorFeatures: stringList,
  fireplace: z.boolean().nullable(),
  parkingFeatures: stringList,
  /** Association fee per year, whole dollars. */
  hoaFee: z.number().nullable(),
  utilities: stringList,
  /** When the listing's data was last refreshed (ISO date-time): the compliance footer's "data updated". */
  dataUpdatedAt: z.string(),
});
export type PublicListing = z.infer<typeof publicListingSchema>;

/**
 * The listing as a lead's delivery carries it (every channel: webhook, Zapier, CRM, email, text alert): the
 * core's contact facts and the public page's URL. Snapshotted with the lead, so retries send the same body.
 */
export const leadDeliveryListingSchema = listingCoreSchema
  .pick({ id: true, mlsId: true, address: true, city: true, state: true, postalCode: true, price: true, bedrooms: true, bathrooms: true, squareFeet: true, imageUrl: true })
  .extend({
    /** 0 on a test send (the sample lead of POST …/test-webhook). */
    id: z.number().int().nonnegative(),
    /** The public listing page. */
    url: z.string(),
  });
export type LeadDeliveryListing = z.infer<typeof leadDeliveryListingSchema>;

/** The listing a "Lead as shown" names (GET /api/agents/{id}/leads). */
export const leadShownListingSchema = listingCoreSchema.pick({ address: true, price: true, mlsId: true });
export type LeadShownListing = z.infer<typeof leadShownListingSchema>;

/**
 * The listing a campaign promotes, as the dashboard's Property card and the reports show it: the core's
 * card facts; imageUrl falls back to the first photo. City, state and price may be missing on an old row.
 */
export const agentCampaignListingSchema = listingCoreSchema
  .pick({ id: true, mlsId: true, address: true, bedrooms: true, bathrooms: true, squareFeet: true, imageUrl: true })
  .extend({ city: nullableString, state: nullableString, price: nullableString });
export type AgentCampaignListing = z.infer<typeof agentCampaignListingSchema>;

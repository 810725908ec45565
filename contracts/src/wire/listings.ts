import { z } from 'zod';
import { LISTING_STATUSES } from '../listing-rules.js';
import { isoDateTimeSchema } from './common.js';

const dateOnlySchema = z.iso.date();

/** A listing on the wire (spec 000 §3): price and bathrooms as decimal strings ("450000", "2.5"). */
export const listingViewSchema = z.object({
  id: z.number().int().positive(),
  agentId: z.number().int().positive(),
  /** The MLS number, or the id given to a manually entered listing: /listing/{mlsId} is its public page. */
  mlsId: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string().nullable(),
  price: z.string(),
  bedrooms: z.number().int().nullable(),
  bathrooms: z.string().nullable(),
  squareFeet: z.number().int().nullable(),
  status: z.enum(LISTING_STATUSES),
  imageUrl: z.string().nullable(),
  images: z.array(z.string()),
  description: z.string().nullable(),
  lotSize: z.string().nullable(),
  lotSizeSqFt: z.number().nullable(),
  yearBuilt: z.number().int().nullable(),
  garageSpaces: z.number().nullable(),
  propertyType: z.string().nullable(),
  amenities: z.record(z.string(), z.unknown()),
  elementarySchool: z.string().nullable(),
  middleSchool: z.string().nullable(),
  highSchool: z.string().nullable(),
  schoolDistrict: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  listDate: dateOnlySchema.nullable(),
  soldDate: dateOnlySchema.nullable(),
  daysOnMarket: z.number().int().nullable(),
  zillowUrl: z.string().nullable(),
  originatingSystemName: z.string().nullable(),
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

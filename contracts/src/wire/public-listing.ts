import { z } from 'zod';
import { publicListingSchema } from './listings.js';
import { phoneLinkSchema } from './common.js';

/**
 * The public listing page's answers (spec 001 §3 "Listing response"): the listing (wire/listings.ts), its agent's
 * contact card, the MLS's display requirements and the campaign's public part. The listing page imports them.
 */

const nullableString = z.string().nullable();

/** The agent on a public page: contact card fields only (never email flags, secrets, webhooks or password state). */
export const publicAgentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: nullableString,
  phone: nullableString,
  phoneLink: phoneLinkSchema,
  brokerage: nullableString,
  mlsId: nullableString,
  state: z.string(),
  profileImageUrl: nullableString,
  logoUrl: nullableString,
});
export type PublicAgent = z.infer<typeof publicAgentSchema>;

export const mlsComplianceSchema = z.object({
  logo: nullableString,
  mlsName: nullableString,
  disclaimer: nullableString,
  brokerage: nullableString,
  broker: nullableString,
});
export type MlsComplianceInfo = z.infer<typeof mlsComplianceSchema>;

/** GET /api/listings/{mlsId} */
export const listingResponseSchema = z.object({
  listing: publicListingSchema,
  agent: publicAgentSchema,
  mlsCompliance: mlsComplianceSchema,
});
export type ListingResponse = z.infer<typeof listingResponseSchema>;

/** GET /api/listings/{mlsId}/campaign: the campaign's public part, or null. */
export const publicCampaignSchema = z
  .object({
    id: z.number().int(),
    headline: nullableString,
    description: nullableString,
    imageUrl: nullableString,
    status: z.string(),
  })
  .nullable();
export type PublicCampaign = z.infer<typeof publicCampaignSchema>;

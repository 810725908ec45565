import { z } from 'zod';
import { LIMITS, isHttpUrl, tooLongMessage } from './common.js';
import { leadFormSchema } from './leads.js';
import { LEAD_CONSENT_VERSIONS, LEAD_HOLD_REASONS, LEAD_VIEWS } from '../public-listing.js';

/**
 * Wire shapes of the public listing pages (spec 001 §3 "Listing response", "Lead as shown") and of
 * the lead endpoint. Presenters return these; the listing page and the dashboard import them.
 */

const nullableString = z.string().nullable();
const stringList = z.array(z.string());

/** The listing as a buyer sees it: public facts only (no agent internals, no timestamps but the data date). */
export const publicListingSchema = z.object({
  id: z.number().int(),
  mlsId: z.string(),
  price: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: nullableString,
  status: z.enum(['active', 'sold']),
  imageUrl: nullableString,
  images: stringList,
  /** imageUrl then images, without duplicates: what the gallery shows. */
  photos: stringList,
  description: nullableString,
  bedrooms: z.number().nullable(),
  bathrooms: nullableString,
  squareFeet: z.number().nullable(),
  yearBuilt: z.number().nullable(),
  garageSpaces: z.number().nullable(),
  propertyType: nullableString,
  /** Acres as a decimal string ("0.25"). */
  lotSize: nullableString,
  lotSizeSqFt: z.number().nullable(),
  listDate: nullableString,
  daysOnMarket: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  elementarySchool: nullableString,
  middleSchool: nullableString,
  highSchool: nullableString,
  schoolDistrict: nullableString,
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

/** The agent on a public page: contact card fields only (never email flags, secrets, webhooks or password state). */
/** A phone as shown and dialled (contracts/phone.ts, formatted by the server): the page needs no phone library. */
export const phoneLinkSchema = z.object({ display: z.string(), href: z.string().nullable() }).nullable();

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

/** "Lead as shown" (GET /api/agents/{id}/leads), newest first. */
export const leadShownSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: nullableString,
  phoneLink: phoneLinkSchema,
  /** "Tour", "Similar homes", both joined by ", ", or "General". */
  interest: z.string(),
  message: z.string(),
  createdAt: z.string(),
  listing: z.object({ address: z.string(), price: z.string(), mlsId: z.string() }),
  status: z.enum(LEAD_VIEWS),
  /** Why it is held (empty unless `held`). */
  holdReasons: z.array(z.enum(LEAD_HOLD_REASONS)),
});
export type LeadShown = z.infer<typeof leadShownSchema>;

/** GET /api/agents/{id}/leads is paged: 25 newest first by default (the dashboard's first view), at most 100 a page. */
export const AGENT_LEADS_PAGE_DEFAULT = 25;
export const AGENT_LEADS_PAGE_MAX = 100;
/** Where a page ended: the lead's creation time in microseconds since 1970, a dot, its id. */
export const LEADS_CURSOR = /^\d{1,17}\.\d{1,15}$/;
const leadsLimitMessage = `limit must be a whole number from 1 to ${AGENT_LEADS_PAGE_MAX}`;

export const agentLeadsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: leadsLimitMessage })
    .int({ error: leadsLimitMessage })
    .min(1, { error: leadsLimitMessage })
    .max(AGENT_LEADS_PAGE_MAX, { error: leadsLimitMessage })
    .default(AGENT_LEADS_PAGE_DEFAULT),
  cursor: z.string().regex(LEADS_CURSOR, { error: 'Invalid cursor' }).optional(),
  /** `received` (the default): the leads delivered; `held`: the ones waiting for the agent's review. */
  status: z.enum(LEAD_VIEWS, { error: `status must be one of ${LEAD_VIEWS.join(', ')}` }).default('received'),
});
export type AgentLeadsQuery = z.infer<typeof agentLeadsQuerySchema>;

/** One page of the agent's leads, with how many there are in all ("Your Leads (n)"). */
export const agentLeadsPageSchema = z.object({
  leads: z.array(leadShownSchema),
  total: z.number().int().nonnegative(),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** How many leads wait for review ("Held for review (n)"), whichever view this page is. */
  held: z.number().int().nonnegative(),
});
export type AgentLeadsPage = z.infer<typeof agentLeadsPageSchema>;

/** POST /api/agents/{id}/leads/{leadId}/release and …/discard: the held lead is now received (delivered) or discarded. */
export const leadReviewedSchema = z.object({ id: z.number().int(), status: z.enum(['received', 'discarded']) });
export type LeadReviewed = z.infer<typeof leadReviewedSchema>;

/**
 * A proof-of-work challenge (hashcash): find a `solution` (a short string of digits and lower-case letters) such
 * that SHA-256 of `${token}:${solution}` (UTF-8) starts with `difficulty` zero bits. The token is the server's,
 * signed, for one listing and one form (its idempotency key), valid for a few minutes and once.
 */
export const leadChallengeSchema = z.object({ token: z.string(), difficulty: z.number().int().min(0).max(32) });
export type LeadChallenge = z.infer<typeof leadChallengeSchema>;

/**
 * 201 of POST /api/listings/{mlsId}/leads. With `challenge`: the listing is guarded (a flood), and this lead waits
 * for the agent's review unless the same form is sent again with the challenge's proof of work.
 */
export const leadCreatedSchema = z.object({ id: z.number().int(), challenge: leadChallengeSchema.optional() });
export type LeadCreated = z.infer<typeof leadCreatedSchema>;

export const LEAD_GUARD_MESSAGES = {
  formToken: 'This form has expired. Please reload the page and try again.',
  tooFast: 'That was quick! Please wait a few seconds and send the form again.',
  idempotencyKey: 'Invalid request key',
  consentVersion: 'Unknown consent text version',
  pageUrl: 'Invalid page URL',
  proof: 'Invalid proof of work',
} as const;

/**
 * POST /api/listings/{mlsId}/leads: the lead form plus what guards and records it.
 * - `website`: the honeypot (an input people never see); anything in it marks a bot.
 * - `formToken`: the signed render time from the page (refused under 3 s or over 24 h).
 * - `idempotencyKey`: made once per filled form, so a retry stores one lead.
 * - `consentVersion`: which consent text was shown (null where none is shown: the manual listing page).
 * - `pageUrl`: the page the lead was sent from (kept with the consent record).
 */
export const leadSubmissionSchema = leadFormSchema.extend({
  website: z.string().max(LIMITS.url).nullish(),
  formToken: z.string({ error: LEAD_GUARD_MESSAGES.formToken }).min(1, { error: LEAD_GUARD_MESSAGES.formToken }).max(200, { error: LEAD_GUARD_MESSAGES.formToken }),
  idempotencyKey: z
    .string({ error: LEAD_GUARD_MESSAGES.idempotencyKey })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { error: LEAD_GUARD_MESSAGES.idempotencyKey }),
  consentVersion: z.enum(LEAD_CONSENT_VERSIONS, { error: LEAD_GUARD_MESSAGES.consentVersion }).nullish().transform((v) => v ?? null),
  pageUrl: z
    .string({ error: LEAD_GUARD_MESSAGES.pageUrl })
    .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
    .refine(isHttpUrl, { error: LEAD_GUARD_MESSAGES.pageUrl })
    .nullish()
    .transform((v) => v ?? null),
  /** The proof of work for a challenge the server gave this form (see leadChallengeSchema). */
  proof: z
    .object(
      {
        token: z.string({ error: LEAD_GUARD_MESSAGES.proof }).max(200, { error: LEAD_GUARD_MESSAGES.proof }),
        solution: z.string({ error: LEAD_GUARD_MESSAGES.proof }).regex(/^[0-9a-z]{1,16}$/, { error: LEAD_GUARD_MESSAGES.proof }),
      },
      { error: LEAD_GUARD_MESSAGES.proof },
    )
    .nullish()
    .transform((v) => v ?? null),
});
export type LeadSubmission = z.infer<typeof leadSubmissionSchema>;
export type LeadSubmissionInput = z.input<typeof leadSubmissionSchema>;

/**
 * POST /api/listings/{mlsId}/lead-challenge, asked by the form as it opens: the page's form token and the form's
 * idempotency key. While the listing is guarded the answer carries the challenge for this form, so the page solves
 * it while the buyer types and the first send already carries the proof (as Friendly Captcha starts solving when
 * a form gets focus); `challenge` is null when the listing is not guarded.
 */
export const leadChallengeRequestSchema = leadSubmissionSchema.pick({ formToken: true, idempotencyKey: true });
export type LeadChallengeRequest = z.infer<typeof leadChallengeRequestSchema>;
export const leadChallengeAnswerSchema = z.object({ challenge: leadChallengeSchema.nullable() });
export type LeadChallengeAnswer = z.infer<typeof leadChallengeAnswerSchema>;

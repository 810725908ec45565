import { z } from 'zod';
import { LEAD_HOLD_REASONS, LEAD_VIEWS } from '../public-listing.js';
import { phoneLinkSchema } from './common.js';
import { leadShownListingSchema } from './listings.js';

/** The leads module's answers: "Lead as shown" and its pages, a reviewed lead, and what sending a lead answers. */

const nullableString = z.string().nullable();

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
  listing: leadShownListingSchema,
  status: z.enum(LEAD_VIEWS),
  /** Why it is held (empty unless `held`). */
  holdReasons: z.array(z.enum(LEAD_HOLD_REASONS)),
});
export type LeadShown = z.infer<typeof leadShownSchema>;

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

export const leadChallengeAnswerSchema = z.object({ challenge: leadChallengeSchema.nullable() });
export type LeadChallengeAnswer = z.infer<typeof leadChallengeAnswerSchema>;

import { z } from 'zod';
import { LIMITS, VALID_EMAIL_MESSAGE, emailField, isHttpUrl, optionalPhoneField, requiredText, tooLongMessage } from './common.js';
import { LEAD_CONSENT_VERSIONS, LEAD_VIEWS } from '../public-listing.js';

/** Lead source stored when a lead comes from a public property page. */
export const LEAD_SOURCE_DEFAULT = 'property_page';

// The lead form's toasts are zod-free texts (public-listing.ts): the listing page imports them without zod.
export { LEAD_FORM_MISSING_TOAST, LEAD_SENT_TOAST } from '../public-listing.js';

/**
 * Lead form and POST /api/listings/:mlsId/leads: name and email required, phone optional,
 * message optional (defaults to ""), both interest flags default to false.
 */
export const leadFormSchema = z.object({
  name: requiredText('Name is required', LIMITS.name),
  email: emailField(VALID_EMAIL_MESSAGE),
  phone: optionalPhoneField(),
  message: z
    .string()
    .trim()
    .max(LIMITS.message, { error: tooLongMessage(LIMITS.message) })
    .nullish()
    .transform((v) => v ?? ''),
  interestedInTour: z.boolean({ error: 'interestedInTour must be true or false' }).default(false),
  interestedInSimilar: z.boolean({ error: 'interestedInSimilar must be true or false' }).default(false),
});
export type LeadFormValues = z.infer<typeof leadFormSchema>;
export type LeadFormInput = z.input<typeof leadFormSchema>;
export const LEAD_FORM_DEFAULTS = {
  name: '',
  email: '',
  phone: '',
  message: '',
  interestedInTour: false,
  interestedInSimilar: false,
} satisfies LeadFormInput;

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
  /** The proof of work for a challenge the server gave this form (see leadChallengeSchema in wire/leads.ts). */
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

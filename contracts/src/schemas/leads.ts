import { z } from 'zod';
import { LIMITS, VALID_EMAIL_MESSAGE, emailField, optionalPhoneField, requiredText, tooLongMessage } from './common.js';

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

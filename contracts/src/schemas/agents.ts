import { z } from 'zod';
import {
  LIMITS,
  VALID_EMAIL_MESSAGE,
  emailField,
  idParam,
  optionalEmailField,
  optionalImageRefSchema,
  optionalPhoneField,
  optionalText,
  requiredText,
  stateCodeField,
  tooLongMessage,
} from './common.js';

export const NAME_REQUIRED_MESSAGE = 'Name is required';
export const STATE_REQUIRED_MESSAGE = 'State is required';
export const MLS_ID_REQUIRED_MESSAGE = 'MLS ID is required';
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MIN_MESSAGE = 'Password must be at least 6 characters';
export const PASSWORDS_DONT_MATCH_MESSAGE = "Passwords don't match";
export const PROFILE_EMAIL_MESSAGE = 'Valid email is required';

/** Toast when the agent form is submitted (or manual entry chosen) with name or state empty. */
export const AGENT_FORM_MISSING_TOAST = {
  title: 'Required Fields Missing',
  description: 'Please enter your name and state before proceeding.',
} as const;

/** Password as typed: not trimmed, 6 to 200 characters. */
export const passwordSchema = z
  .string({ error: PASSWORD_MIN_MESSAGE })
  .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_MIN_MESSAGE })
  .max(LIMITS.password, { error: tooLongMessage(LIMITS.password) });

// ---------------------------------------------------------------- wizard step 1

/** Agent form of step 1 (name + one of the 50 states). Both start empty. */
export const agentFormSchema = z.object({
  name: requiredText(NAME_REQUIRED_MESSAGE, LIMITS.name),
  state: stateCodeField(STATE_REQUIRED_MESSAGE),
});
export type AgentFormValues = z.infer<typeof agentFormSchema>;
export const AGENT_FORM_DEFAULTS: z.input<typeof agentFormSchema> = { name: '', state: '' };

/** POST /api/mls/search-agent: { name, state }, same rules as the agent form. */
export const mlsSearchSchema = agentFormSchema;
export type MlsSearchPayload = z.infer<typeof mlsSearchSchema>;

/**
 * POST /api/mls/load: { agentId, mlsId }. The wizard falls back to the agent's id when the agent
 * has no mlsId, so a number is accepted and turned into a string.
 */
export const mlsLoadSchema = z.object({
  agentId: idParam,
  mlsId: z
    .union([z.string(), z.number().int({ error: MLS_ID_REQUIRED_MESSAGE }).nonnegative({ error: MLS_ID_REQUIRED_MESSAGE })], {
      error: MLS_ID_REQUIRED_MESSAGE,
    })
    .transform((v) => String(v))
    .pipe(requiredText(MLS_ID_REQUIRED_MESSAGE, LIMITS.mlsId)),
});
export type MlsLoadPayload = z.infer<typeof mlsLoadSchema>;

/**
 * POST /api/agents. Either an agent found in the MLS ({ name, state, email, mlsId }) or manual
 * entry (the agent form values plus `manualEntry: true`, no mlsId needed). The wizard also sends
 * brokerage, phone and email as null. Empty strings become null.
 */
export const agentCreateSchema = z
  .object({
    name: requiredText(NAME_REQUIRED_MESSAGE, LIMITS.name),
    state: stateCodeField(STATE_REQUIRED_MESSAGE),
    email: optionalEmailField(),
    phone: optionalPhoneField(),
    brokerage: optionalText(LIMITS.brokerage),
    mlsId: optionalText(LIMITS.mlsId),
    manualEntry: z.boolean({ error: 'manualEntry must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.manualEntry !== true && !v.mlsId) {
      ctx.addIssue({ code: 'custom', path: ['mlsId'], message: MLS_ID_REQUIRED_MESSAGE });
    }
  });
export type AgentCreatePayload = z.infer<typeof agentCreateSchema>;
export type AgentCreateInput = z.input<typeof agentCreateSchema>;

// ---------------------------------------------------------------- branding, profile, account

const brandingShape = {
  name: requiredText(NAME_REQUIRED_MESSAGE, LIMITS.name).optional(),
  email: optionalEmailField(),
  phone: optionalPhoneField(),
  brokerage: optionalText(LIMITS.brokerage),
  profileImageUrl: optionalImageRefSchema,
  logoUrl: optionalImageRefSchema,
  mlsId: optionalText(LIMITS.mlsId),
};

/**
 * PUT /api/agents/:id from the branding step (name, email, phone, brokerage, profileImageUrl,
 * logoUrl) and the dashboard's profile edit (name, email, phone, brokerage, mlsId).
 * Every field is optional: absent = unchanged, "" or null = cleared (name cannot be cleared).
 * Unknown keys are dropped.
 */
export const brandingUpdateSchema = z.object(brandingShape);
export type BrandingUpdatePayload = z.infer<typeof brandingUpdateSchema>;
export type BrandingUpdateInput = z.input<typeof brandingUpdateSchema>;

/**
 * Account setup dialog on the success screen (DESIGN §3): the link goes to the email (for an agent found in
 * the MLS, the email the MLS publishes); a password is optional. When one is typed it has the spec's
 * minimum and must be confirmed.
 */
export const accountSetupFormSchema = z
  .object({
    email: emailField(VALID_EMAIL_MESSAGE),
    password: z.union([z.literal(''), passwordSchema], { error: PASSWORD_MIN_MESSAGE }),
    confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH_MESSAGE }).max(LIMITS.password),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    error: PASSWORDS_DONT_MATCH_MESSAGE,
    // Compare even when the email is invalid, so the form shows every problem at once.
    when: (payload) => {
      const val = payload.value as { password?: unknown; confirmPassword?: unknown };
      return typeof val?.password === 'string' && typeof val?.confirmPassword === 'string';
    },
  });
export type AccountSetupFormValues = z.infer<typeof accountSetupFormSchema>;
export const ACCOUNT_SETUP_DEFAULTS: z.input<typeof accountSetupFormSchema> = {
  email: '',
  password: '',
  confirmPassword: '',
};

/** POST /api/agents/:id/account-setup (and PUT /api/agents/:id with a password): { email, password? }. */
export const accountSetupPayloadSchema = z.object({
  email: emailField(VALID_EMAIL_MESSAGE),
  password: passwordSchema.optional(),
});
export type AccountSetupPayload = z.infer<typeof accountSetupPayloadSchema>;

/**
 * The full body PUT /api/agents/:id accepts: the branding/profile fields plus an optional
 * password (account setup). A password needs an email in the same request.
 */
export const agentUpdateSchema = z
  .object({ ...brandingShape, password: passwordSchema.optional() })
  .superRefine((v, ctx) => {
    if (v.password !== undefined && !v.email) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: VALID_EMAIL_MESSAGE });
    }
  });
export type AgentUpdatePayload = z.infer<typeof agentUpdateSchema>;
export type AgentUpdateInput = z.input<typeof agentUpdateSchema>;

/** Dashboard "Edit Contact Information" form. */
export const profileEditSchema = z.object({
  name: requiredText(NAME_REQUIRED_MESSAGE, LIMITS.name),
  email: emailField(PROFILE_EMAIL_MESSAGE),
  phone: optionalPhoneField(),
  brokerage: optionalText(LIMITS.brokerage),
  mlsId: optionalText(LIMITS.mlsId),
});
export type ProfileEditValues = z.infer<typeof profileEditSchema>;
export type ProfileEditInput = z.input<typeof profileEditSchema>;

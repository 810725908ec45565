import { z } from 'zod';
import { LIMITS, VALID_EMAIL_MESSAGE, emailField, tooLongMessage } from './common.js';
import { PASSWORD_MIN_LENGTH, PASSWORD_MIN_MESSAGE, PASSWORDS_DONT_MATCH_MESSAGE, passwordSchema } from './agents.js';

export const ADMIN_PASSWORD_REQUIRED_MESSAGE = 'Password is required';

/** Login step 1 (email only). */
export const loginEmailSchema = z.object({ email: emailField(VALID_EMAIL_MESSAGE) });
export type LoginEmailValues = z.infer<typeof loginEmailSchema>;

/** POST /api/auth/login and the login form: { email, password }. */
export const loginSchema = z.object({
  email: emailField(VALID_EMAIL_MESSAGE),
  password: z
    .string({ error: PASSWORD_MIN_MESSAGE })
    .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_MIN_MESSAGE })
    .max(LIMITS.password, { error: tooLongMessage(LIMITS.password) }),
});
export type LoginPayload = z.infer<typeof loginSchema>;

/** POST /api/admin/login: { password }. */
export const adminLoginSchema = z.object({
  password: z
    .string({ error: ADMIN_PASSWORD_REQUIRED_MESSAGE })
    .min(1, { error: ADMIN_PASSWORD_REQUIRED_MESSAGE })
    .max(LIMITS.password, { error: tooLongMessage(LIMITS.password) }),
});
export type AdminLoginPayload = z.infer<typeof adminLoginSchema>;

// ---------------------------------------------------------------- email verification, password reset

/** DESIGN §6 "Accounts": a verification link works once, for this long. */
export const EMAIL_VERIFICATION_TTL_MINUTES = 30;

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose one that is harder to guess.';
export const VERIFICATION_LINK_INVALID_MESSAGE =
  'This link is invalid, has expired or has already been used. Please ask for a new one.';
export const CURRENT_PASSWORD_WRONG_MESSAGE = 'Your current password is not correct';
export const FORGOT_PASSWORD_SENT_MESSAGE =
  'If an account exists for this email address, we have sent it a link to reset the password. The link works once, for 30 minutes.';

/** A link's token as it appears in /verify-email?token=… and /reset-password?token=… (base64url). */
export const verificationTokenSchema = z
  .string({ error: VERIFICATION_LINK_INVALID_MESSAGE })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: VERIFICATION_LINK_INVALID_MESSAGE });

export const CHOOSE_PASSWORD_MESSAGE = 'This link was opened in another browser: please choose your password here.';

/**
 * POST /api/auth/verify-email: { token } from the emailed link (account setup, email change, sign-in). It
 * signs the opening browser in; a password may come with it (the opener's choice, for an agent without one).
 */
export const verifyEmailSchema = z.object({ token: verificationTokenSchema, password: passwordSchema.optional() });
export type VerifyEmailPayload = z.infer<typeof verifyEmailSchema>;

/** POST /api/auth/forgot-password: { email }. */
export const forgotPasswordSchema = loginEmailSchema;
export type ForgotPasswordPayload = z.infer<typeof forgotPasswordSchema>;

/** POST /api/auth/reset-password: { token, password } from the emailed reset link. */
export const resetPasswordSchema = z.object({ token: verificationTokenSchema, password: passwordSchema });
export type ResetPasswordPayload = z.infer<typeof resetPasswordSchema>;

/** The reset form: new password and its confirmation. */
export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH_MESSAGE }).max(LIMITS.password) })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: PASSWORDS_DONT_MATCH_MESSAGE });
export type ResetPasswordFormValues = z.infer<typeof resetPasswordFormSchema>;

/**
 * POST /api/auth/change-password: { currentPassword, newPassword } (logged in). An agent signed in by an emailed
 * link who has no password yet sets the first one without `currentPassword`.
 */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: CURRENT_PASSWORD_WRONG_MESSAGE })
    .min(1, { error: CURRENT_PASSWORD_WRONG_MESSAGE })
    .max(LIMITS.password, { error: tooLongMessage(LIMITS.password) })
    .optional(),
  newPassword: passwordSchema,
});
export type ChangePasswordPayload = z.infer<typeof changePasswordSchema>;

/**
 * POST /api/auth/sign-in-link: { email } from the login page's "Email me a sign-in link". The answer is the
 * same whatever the address (SIGN_IN_LINK_SENT_MESSAGE).
 */
export const signInLinkSchema = loginEmailSchema;
export type SignInLinkPayload = z.infer<typeof signInLinkSchema>;
export const SIGN_IN_LINK_SENT_MESSAGE =
  'If this email address belongs to an agent here, we have sent it a sign-in link. The link works once, for 30 minutes.';


// ---------------------------------------------------------------- Continue with Google

/** Where GET /api/auth/google/callback sends the browser back to /login when nobody got logged in: `/login?google=<result>`. */
export const GOOGLE_LOGIN_RESULTS = ['no-account', 'unverified-email', 'failed'] as const;
export type GoogleLoginResult = (typeof GOOGLE_LOGIN_RESULTS)[number];

/** What the login page says for each result. */
export const GOOGLE_LOGIN_MESSAGES: Record<GoogleLoginResult, string> = {
  'no-account': 'There is no account for this Google email address yet. Sign up to create your first campaign, or log in with your email and password.',
  'unverified-email': 'Google has not verified the email address of this Google account, so it cannot be used to log in.',
  failed: 'Google login did not complete. Please try again.',
};

/** The 503 of /api/auth/google without GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET, and the disabled button's reason. */
export const GOOGLE_LOGIN_DISABLED_MESSAGE = 'Google login is not available: this server has no Google client configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).';

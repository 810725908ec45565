import { z } from 'zod';
import { LIMITS, VALID_EMAIL_MESSAGE, emailField, tooLongMessage } from './common.js';
import { PASSWORD_MIN_LENGTH, PASSWORD_MIN_MESSAGE } from './agents.js';

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

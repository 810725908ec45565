import {
  API_KEY_MESSAGES,
  type ApiKeyScope,
  CHOOSE_PASSWORD_MESSAGE,
  GOOGLE_LOGIN_DISABLED_MESSAGE,
  COMMON_PASSWORD_MESSAGE,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  VERIFICATION_LINK_INVALID_MESSAGE,
} from '@app/contracts';
import { AppError, forbidden, unavailable } from '../../platform/errors';

/** The agents module's errors (stable codes; the error middleware writes the body). */

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

export const invalidCredentials = () => new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS_MESSAGE);

/** A wizard browser (draft access) asked for what only the signed-in agent reaches: it may ask for a sign-in link. */
export const loginRequired = () => forbidden('agents.login_required', 'Please sign in to continue: we can email you a sign-in link.');

export const agentForbidden = () => forbidden('agents.forbidden', 'You do not have access to this agent');

export const EMAIL_TAKEN_MESSAGE = 'An account with this email address already exists. Please log in.';
export const PASSWORD_ALREADY_SET_MESSAGE = 'This account already has a password. Please log in.';

export const emailTaken = () => new AppError(409, 'agents.email_taken', EMAIL_TAKEN_MESSAGE);
export const passwordAlreadySet = () => new AppError(409, 'agents.password_already_set', PASSWORD_ALREADY_SET_MESSAGE);
/** The link's token is unknown, used or expired: one answer for all three. */
export const verificationInvalid = () => new AppError(400, 'agents.verification_invalid', VERIFICATION_LINK_INVALID_MESSAGE, { token: VERIFICATION_LINK_INVALID_MESSAGE });
export const commonPassword = (field: string) => new AppError(400, 'agents.common_password', COMMON_PASSWORD_MESSAGE, { [field]: COMMON_PASSWORD_MESSAGE });
export const currentPasswordWrong = () =>
  new AppError(400, 'agents.current_password_wrong', CURRENT_PASSWORD_WRONG_MESSAGE, { currentPassword: CURRENT_PASSWORD_WRONG_MESSAGE });
/** Login As (DESIGN §6): one refusal for password, email and notification secrets, defined by the platform. */
export { impersonationRefused } from '../../platform/errors';
/** An account-setup link opened in another browser: whoever opens it chooses the password (never the requester's). */
export const choosePassword = () => new AppError(400, 'agents.choose_password', CHOOSE_PASSWORD_MESSAGE, { password: CHOOSE_PASSWORD_MESSAGE });
/** Continue with Google without GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET (the login page disables its button). */
export const googleLoginDisabled = () => unavailable('agents.google_login_disabled', GOOGLE_LOGIN_DISABLED_MESSAGE);

// API keys (the public API, /api/v1).
/** No key on the request: the header tells clients how to send one. */
export const apiKeyRequired = () => new AppError(401, 'api.key_required', API_KEY_MESSAGES.missing);
/** Unknown or revoked key: one answer for both. */
export const apiKeyInvalid = () => new AppError(401, 'api.key_invalid', API_KEY_MESSAGES.invalid);
export const apiKeyScopeMissing = (scope: ApiKeyScope) => forbidden('api.insufficient_scope', API_KEY_MESSAGES.scope(scope));
export const apiKeyNotFound = () => new AppError(404, 'agents.api_key_not_found', 'API key not found');
export const tooManyApiKeys = () => new AppError(409, 'agents.api_key_limit', API_KEY_MESSAGES.tooMany);

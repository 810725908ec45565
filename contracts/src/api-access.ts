/**
 * The public API's and text alerts' rules and texts (no zod here, so the dashboard imports them by path):
 * API key scopes and limits, REST hook events, and the text-alert consent and messages.
 */

/** What a key may do. `/api/v1/me` needs no scope: any valid key may ask who it belongs to. */
export const API_KEY_SCOPES = ['leads:read', 'hooks:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** Keys an agent may hold at once (revoked ones do not count). */
export const API_KEYS_PER_AGENT = 10;
/** REST hooks an agent may have subscribed at once. */
export const HOOKS_PER_AGENT = 25;
/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'la_';

export const API_KEY_MESSAGES = {
  name: 'Give the key a name',
  scopes: `Choose at least one scope: ${API_KEY_SCOPES.join(', ')}`,
  tooMany: `An agent can have at most ${API_KEYS_PER_AGENT} API keys. Revoke one first.`,
  missing: 'An API key is required: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>"',
  invalid: 'This API key is not valid (it may have been revoked)',
  scope: (scope: ApiKeyScope) => `This API key does not have the ${scope} scope`,
} as const;

export const HOOK_EVENTS = ['lead.created'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const HOOK_MESSAGES = {
  targetUrl: 'targetUrl must be a valid HTTPS URL',
  event: `event must be one of ${HOOK_EVENTS.join(', ')}`,
  tooMany: `At most ${HOOKS_PER_AGENT} hooks can be subscribed at once. Unsubscribe one first.`,
} as const;

/** The consent the agent sees beside the number: stored with the verification, word for word. */
export const SMS_CONSENT_TEXT =
  'I agree to receive automated text alerts from Listing Ads at this number about new leads (at most one text a minute). ' +
  'Message and data rates may apply. Reply STOP to opt out, START to resume.';
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_MINUTES = 10;
export const SMS_STATUSES = ['off', 'pending', 'active', 'stopped'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

export const SMS_MESSAGES = {
  phone: 'Please enter a valid US mobile number',
  consent: 'Please agree to receive text alerts',
  code: `Enter the ${SMS_CODE_LENGTH}-digit code we texted you`,
  codeWrong: 'That code is not right. Check the text and try again.',
  codeExpired: 'That code has expired. Send a new one.',
  notPending: 'Send a code to your number first.',
  stopped: 'You replied STOP, so texts are paused. Reply START from your phone to resume.',
} as const;


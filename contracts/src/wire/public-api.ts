import { z } from 'zod';
import { API_KEY_SCOPES, HOOK_EVENTS, SMS_STATUSES } from '../api-access.js';
import { leadDeliverySchema } from './notifications.js';

/** The public API's (v1) answers and what the dashboard shows of its keys, REST hooks and text alerts. */

/** A key as listed: never the key itself, only its first characters to tell keys apart. */
export const apiKeyViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, e.g. "la_3kZ9". */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

/** The answer to creating a key: the key itself, shown this once. */
export const apiKeyCreatedSchema = apiKeyViewSchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

/** GET /api/v1/me: the agent the key belongs to (an integration's connection test and label). */
export const apiMeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  brokerage: z.string().nullable(),
  state: z.string(),
  apiKey: z.object({ id: z.number().int(), name: z.string(), scopes: z.array(z.enum(API_KEY_SCOPES)) }),
});
export type ApiMe = z.infer<typeof apiMeSchema>;

/** Each lead exactly as a subscribed hook receives it in `data` (the same object in the list and in the hook). */
export const apiLeadsPageSchema = z.object({
  leads: z.array(leadDeliverySchema),
  nextCursor: z.string().nullable(),
});
export type ApiLeadsPage = z.infer<typeof apiLeadsPageSchema>;

/**
 * The answer to a subscription: its id (for DELETE), and the Standard Webhooks secret (`whsec_…`) its
 * deliveries are signed with, shown this once. Subscribing the same URL again answers the same hook.
 */
export const hookCreatedSchema = z.object({
  id: z.number().int(),
  targetUrl: z.string(),
  event: z.enum(HOOK_EVENTS),
  secret: z.string(),
  createdAt: z.string(),
});
export type HookCreated = z.infer<typeof hookCreatedSchema>;

/** A subscribed hook as the dashboard lists it (its URL masked: hook URLs are credentials). */
export const hookViewSchema = z.object({
  id: z.number().int(),
  targetUrl: z.string().nullable(),
  event: z.enum(HOOK_EVENTS),
  createdAt: z.string(),
});
export type HookView = z.infer<typeof hookViewSchema>;

/** GET /api/agents/{id}/sms: the number (formatted for display), the state, and when consent was given. */
export const smsViewSchema = z.object({
  phone: z.string().nullable(),
  status: z.enum(SMS_STATUSES),
  consentAt: z.string().nullable(),
  /** While pending: until when the code texted last is valid. */
  codeExpiresAt: z.string().nullable(),
  /** Where the texts go in this installation: Twilio, or the embedded outbox (development). */
  provider: z.enum(['twilio', 'outbox']),
});
export type SmsView = z.infer<typeof smsViewSchema>;

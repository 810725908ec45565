import { z } from 'zod';
import {
  CRM_TYPES,
  DELIVERY_CHANNELS,
  DELIVERY_KINDS,
  DELIVERY_STATUSES,
  WEBHOOK_TYPES,
  ZAPIER_HOOK_PREFIX,
} from '../integrations.js';
import { LIMITS, idParam, isAbsoluteUrl, isHttpsUrl, tooLongMessage } from './common.js';

export const NOTIFICATION_MESSAGES = {
  webhookUrl: 'Webhook URL must be a valid HTTPS URL',
  zapierWebhookUrl: 'Zapier webhook URL must be a https://hooks.zapier.com/ catch hook URL',
  crmWebhookUrl: 'CRM webhook URL must be a valid HTTPS URL',
  crmType: 'Please select a supported CRM',
  crmWebhookUrlRequired: 'CRM webhook URL is required for this CRM',
  crmApiKeyRequired: 'An API key is required for this CRM',
  webhookType: 'Webhook type must be custom, zapier or crm',
  webhookSecretInvalid: 'A whsec_ secret must be whsec_ followed by the base64 of a 24 to 64 byte key',
  publicTargetRequired: 'This URL must point to a public internet address',
} as const;

/** Write-only secret: trimmed; "", null and absent all mean "not typed, keep the stored one". */
const writeOnlySecret = z
  .string({ error: 'Must be text' })
  .trim()
  .max(LIMITS.secret, { error: tooLongMessage(LIMITS.secret) })
  .nullish()
  .transform((v) => (v ? v : undefined));

/** Standard Webhooks: a `whsec_` secret is the base64 of a key of 24 to 64 bytes. */
export const WHSEC_KEY_BYTES = { min: 24, max: 64 } as const;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Whether a typed webhook secret can sign: text without the `whsec_` prefix is used as its own bytes; with the
 * prefix, what follows must be base64 (padded) of 24 to 64 bytes, as Standard Webhooks defines it. A malformed
 * one would otherwise be used as raw text and every receiver's verification would fail.
 */
export function isUsableWebhookSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return true;
  const b64 = secret.slice('whsec_'.length);
  if (b64.length === 0 || !BASE64.test(b64)) return false;
  const bytes = (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
  return bytes >= WHSEC_KEY_BYTES.min && bytes <= WHSEC_KEY_BYTES.max;
}

const webhookSecretField = writeOnlySecret.refine((v) => v === undefined || isUsableWebhookSecret(v), { error: NOTIFICATION_MESSAGES.webhookSecretInvalid });

function isLoopbackHttpUrl(value: string): boolean {
  if (!isAbsoluteUrl(value, ['http:', 'https:'])) return false;
  const host = new URL(value).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

function urlField(message: string, accept: (v: string) => boolean) {
  return z
    .string({ error: message })
    .trim()
    .max(LIMITS.url, { error: tooLongMessage(LIMITS.url) })
    .refine((v) => v === '' || accept(v), { error: message })
    .nullish()
    .transform((v) => (v === '' ? null : v));
}

/**
 * PUT /api/agents/:id/notification-settings (and the settings form).
 * Absent = unchanged. URLs: https only, "" or null clears. crmType: one of the CRM list, "" or null
 * clears (with the CRM URL and key). webhookSecret and crmApiKey are write-only and only applied when
 * typed; to remove one, send clearWebhookSecret / clearCrmApiKey: true (a webhook that stays set then
 * gets a new generated secret, shown once: every webhook is signed).
 *
 * `allowPlainHttp` is the server's OUTBOUND_ALLOW_LOOPBACK (tests only): then http URLs pass too, and the
 * Zapier field also takes a loopback URL (a local receiver standing in for Zapier).
 */
export function makeNotificationSettingsSchema(opts: { allowPlainHttp: boolean } = { allowPlainHttp: false }) {
  const url = (v: string) => isHttpsUrl(v) || (opts.allowPlainHttp && isAbsoluteUrl(v, ['http:']));
  const zapier = (v: string) =>
    (isHttpsUrl(v) && v.toLowerCase().startsWith(ZAPIER_HOOK_PREFIX) && new URL(v).pathname.length > 1) ||
    (opts.allowPlainHttp && isLoopbackHttpUrl(v));
  return z.object({
    emailNotifications: z.boolean({ error: 'emailNotifications must be true or false' }).optional(),
    instantNotifications: z.boolean({ error: 'instantNotifications must be true or false' }).optional(),
    webhookUrl: urlField(NOTIFICATION_MESSAGES.webhookUrl, url),
    webhookSecret: webhookSecretField,
    clearWebhookSecret: z.boolean({ error: 'clearWebhookSecret must be true or false' }).optional(),
    zapierWebhookUrl: urlField(NOTIFICATION_MESSAGES.zapierWebhookUrl, zapier),
    crmType: z
      .union([z.enum(CRM_TYPES), z.literal('')], { error: NOTIFICATION_MESSAGES.crmType })
      .nullish()
      .transform((v) => (v === '' ? null : v)),
    crmWebhookUrl: urlField(NOTIFICATION_MESSAGES.crmWebhookUrl, url),
    crmApiKey: writeOnlySecret,
    clearCrmApiKey: z.boolean({ error: 'clearCrmApiKey must be true or false' }).optional(),
  });
}

export const notificationSettingsSchema = makeNotificationSettingsSchema();
export type NotificationSettingsPayload = z.infer<typeof notificationSettingsSchema>;
export type NotificationSettingsInput = z.input<typeof notificationSettingsSchema>;


/** POST /api/agents/:id/test-webhook: { webhookType } → { message }. */
export const testWebhookSchema = z.object({
  webhookType: z.enum(WEBHOOK_TYPES, { error: NOTIFICATION_MESSAGES.webhookType }),
});
export type TestWebhookPayload = z.infer<typeof testWebhookSchema>;


/** GET /api/agents/:id/deliveries query: newest first, filter by channel and status. */
export const deliveriesQuerySchema = z.object({
  channel: z.enum(DELIVERY_CHANNELS, { error: `channel must be one of ${DELIVERY_CHANNELS.join(', ')}` }).optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  page: z.coerce.number({ error: 'page must be a positive number' }).int({ error: 'page must be a positive number' }).min(1, { error: 'page must be a positive number' }).max(100000).default(1),
  pageSize: z.coerce.number({ error: 'pageSize must be 1 to 100' }).int({ error: 'pageSize must be 1 to 100' }).min(1, { error: 'pageSize must be 1 to 100' }).max(100, { error: 'pageSize must be 1 to 100' }).default(20),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuerySchema>;


export const deliveryParamsSchema = z.object({ id: idParam, deliveryId: idParam });


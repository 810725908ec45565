import { z } from 'zod';
import { CRM_TYPES, WEBHOOK_TYPES, type CrmType } from '../integrations.js';
import { LIMITS, optionalHttpsUrlField, tooLongMessage } from './common.js';

export const NOTIFICATION_MESSAGES = {
  webhookUrl: 'Webhook URL must be a valid HTTPS URL',
  zapierWebhookUrl: 'Zapier webhook URL must be a valid HTTPS URL',
  crmWebhookUrl: 'CRM webhook URL must be a valid HTTPS URL',
  crmType: 'Please select a supported CRM',
  webhookType: 'Webhook type must be custom, zapier or crm',
} as const;

/** Write-only secret: trimmed; "", null and absent all mean "not typed, keep the stored one". */
const writeOnlySecret = z
  .string({ error: 'Must be text' })
  .trim()
  .max(LIMITS.secret, { error: tooLongMessage(LIMITS.secret) })
  .nullish()
  .transform((v) => (v ? v : undefined));

/**
 * PUT /api/agents/:id/notification-settings (and the settings form).
 * Absent = unchanged. URLs: https only, "" or null clears. crmType: one of the CRM list, "" or null
 * clears. webhookSecret and crmApiKey are write-only and only applied when typed.
 */
export const notificationSettingsSchema = z.object({
  emailNotifications: z.boolean({ error: 'emailNotifications must be true or false' }).optional(),
  instantNotifications: z.boolean({ error: 'instantNotifications must be true or false' }).optional(),
  webhookUrl: optionalHttpsUrlField(NOTIFICATION_MESSAGES.webhookUrl),
  webhookSecret: writeOnlySecret,
  zapierWebhookUrl: optionalHttpsUrlField(NOTIFICATION_MESSAGES.zapierWebhookUrl),
  crmType: z
    .union([z.enum(CRM_TYPES), z.literal('')], { error: NOTIFICATION_MESSAGES.crmType })
    .nullish()
    .transform((v) => (v === '' ? null : v)),
  crmWebhookUrl: optionalHttpsUrlField(NOTIFICATION_MESSAGES.crmWebhookUrl),
  crmApiKey: writeOnlySecret,
});
export type NotificationSettingsPayload = z.infer<typeof notificationSettingsSchema>;
export type NotificationSettingsInput = z.input<typeof notificationSettingsSchema>;

/** GET /api/agents/:id/notification-settings: secrets are never returned, only whether they exist. */
export interface NotificationSettingsView {
  emailNotifications: boolean;
  instantNotifications: boolean;
  webhookUrl: string | null;
  hasWebhookSecret: boolean;
  zapierWebhookUrl: string | null;
  crmType: CrmType | null;
  crmWebhookUrl: string | null;
  hasCrmApiKey: boolean;
}

/** POST /api/agents/:id/test-webhook: { webhookType } → { message }. */
export const testWebhookSchema = z.object({
  webhookType: z.enum(WEBHOOK_TYPES, { error: NOTIFICATION_MESSAGES.webhookType }),
});
export type TestWebhookPayload = z.infer<typeof testWebhookSchema>;

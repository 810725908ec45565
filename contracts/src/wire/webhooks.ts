import { z } from 'zod';
import { leadWebhookBodySchema } from './notifications.js';

/**
 * The `lead.created` event an agent's webhook endpoint receives (DESIGN §6), signed per Standard
 * Webhooks: headers webhook-id, webhook-timestamp (Unix seconds) and webhook-signature
 * ("v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>", space-separated when several).
 */
export const LEAD_CREATED_EVENT = 'lead.created';

export const webhookHeadersSchema = z.object({
  'webhook-id': z.string().describe('Unique message id; the same on every retry of one delivery (use it to drop duplicates).'),
  'webhook-timestamp': z.string().regex(/^\d+$/).describe('Unix time in seconds when the attempt was signed; refuse old ones.'),
  'webhook-signature': z.string().describe('"v1,<base64 signature>" over `${webhook-id}.${webhook-timestamp}.${body}` with the endpoint secret.'),
});

/** The `lead.created` body: the lead delivery's body (wire/notifications.ts), as every subscribed endpoint receives it. */
export const leadCreatedWebhookSchema = leadWebhookBodySchema.extend({ type: z.literal(LEAD_CREATED_EVENT) });
export type LeadCreatedWebhook = z.infer<typeof leadCreatedWebhookSchema>;

import { Webhook } from 'standardwebhooks';
import type { Channel, ChannelContext, MessageRow } from './channel';
import { notConfigured } from './channel';
import { postAttempt } from './http-attempt';

/**
 * The signing key from the agent's secret: a `whsec_…` secret is used as Standard Webhooks defines it
 * (base64 after the prefix); any other text the agent typed is used as its raw UTF-8 bytes.
 */
export function webhookSigner(secret: string): Webhook {
  if (/^whsec_[A-Za-z0-9+/=]+$/.test(secret)) return new Webhook(secret);
  return new Webhook(new TextEncoder().encode(secret), { format: 'raw' });
}

/** The body as sent: `{type, timestamp, data}` in this key order, from the stored payload (same bytes on every retry). */
export function webhookBody(payload: { type: string; timestamp: string; data: unknown }): string {
  return JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data });
}

/**
 * Standard Webhooks headers for one attempt: `webhook-id` is the message's (stable across retries),
 * `webhook-timestamp` is now (receivers reject old ones), the signature covers `id.timestamp.body`.
 */
export function signedHeaders(secret: string, webhookId: string, body: string, now: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'ListingAds-Webhooks/1.0',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': webhookSigner(secret).sign(webhookId, now, body),
  };
}

/** The agent's own endpoint, signed (Standard Webhooks). */
export const webhookChannel: Channel = {
  async deliver(message: MessageRow, ctx: ChannelContext) {
    const { webhookUrl, webhookSecretEnc, webhookDisabledAt } = ctx.settings;
    if (!webhookUrl) return notConfigured('The webhook URL is no longer set');
    if (webhookDisabledAt) return notConfigured('The webhook was turned off after it answered 410 Gone', webhookUrl);
    if (!webhookSecretEnc) return notConfigured('The webhook has no signing secret', webhookUrl);
    const body = webhookBody(message.payload);
    const headers = signedHeaders(ctx.box.open(webhookSecretEnc), message.webhookId, body, ctx.now);
    return postAttempt(ctx.safeFetch, { url: webhookUrl, headers, body, target: webhookUrl }, ctx.now);
  },
};

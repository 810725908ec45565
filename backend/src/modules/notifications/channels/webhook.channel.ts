import crypto from 'node:crypto';
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
 * The HMAC key `webhookSigner` would sign with, as bytes node:crypto takes: the base64 after `whsec_` (only when it
 * is canonical base64, as the library's strict decoder needs), else the raw UTF-8 of what the agent typed. `null`
 * for what only the library knows how to answer (a malformed `whsec_` secret, an empty one): those go through it.
 */
function signingKey(secret: string): Buffer | null {
  if (/^whsec_[A-Za-z0-9+/=]+$/.test(secret)) {
    const b64 = secret.slice('whsec_'.length);
    const key = Buffer.from(b64, 'base64');
    return key.length > 0 && key.toString('base64') === b64 ? key : null;
  }
  const key = Buffer.from(secret, 'utf8');
  return key.length > 0 ? key : null;
}

/**
 * The Standard Webhooks signature (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`), computed by node:crypto:
 * the same bytes as `webhookSigner(secret).sign(…)`, whose pure-JS SHA-256 cost more than the rest of the attempt.
 */
export function webhookSignature(secret: string, webhookId: string, body: string, now: Date): string {
  const key = signingKey(secret);
  if (!key) return webhookSigner(secret).sign(webhookId, now, body);
  return `v1,${crypto.createHmac('sha256', key).update(`${webhookId}.${Math.floor(now.getTime() / 1000)}.${body}`).digest('base64')}`;
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
    'webhook-signature': webhookSignature(secret, webhookId, body, now),
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

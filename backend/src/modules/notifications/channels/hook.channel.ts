import { maskUrl } from '@app/contracts';
import type { Channel } from './channel';
import { notConfigured } from './channel';
import { postAttempt } from './http-attempt';
import { signedHeaders, webhookBody } from './webhook.channel';

/**
 * A REST hook subscribed through the public API (Zapier, Make, n8n): the custom webhook's body and
 * Standard Webhooks signature, with the hook's own secret. Its URL is a credential: logged masked.
 * The hook stops once the API key that subscribed it is revoked.
 */
export const hookChannel: Channel = {
  async deliver(message, ctx) {
    const hook = ctx.hook;
    if (!hook) return notConfigured('The hook was unsubscribed');
    const target = maskUrl(hook.targetUrl);
    if (hook.keyLive === false) return notConfigured('The API key that subscribed this hook was revoked', target);
    const body = webhookBody(message.payload);
    const headers = signedHeaders(ctx.box.open(hook.secretEnc), message.webhookId, body, ctx.now);
    return postAttempt(ctx.safeFetch, { url: hook.targetUrl, headers, body, target }, ctx.now);
  },
};

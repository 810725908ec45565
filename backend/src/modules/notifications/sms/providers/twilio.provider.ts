import twilio from 'twilio';
import type { Config } from '../../../../platform/config';
import { SmsSendError, type SmsProvider } from './sms-provider';

/**
 * Twilio Programmable Messaging through the `twilio` library: messages.create({to, from | messagingServiceSid,
 * body}). A messaging service (TWILIO_MESSAGING_SERVICE_SID) is preferred when set: Twilio then handles the
 * sender pool and carrier opt-out rules.
 */
export function twilioProvider(config: Config): SmsProvider {
  const client = twilio(config.TWILIO_ACCOUNT_SID!, config.TWILIO_AUTH_TOKEN!, { timeout: config.OUTBOUND_TIMEOUT_MS, autoRetry: false });
  const sender = config.TWILIO_MESSAGING_SERVICE_SID ? { messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID } : { from: config.TWILIO_FROM_NUMBER! };
  return {
    name: 'twilio',
    async send({ to, body }) {
      try {
        const sent = await client.messages.create({ to, body, ...sender });
        return { id: sent.sid };
      } catch (err) {
        const e = err as { status?: number; code?: number; message: string; headers?: Record<string, string> };
        const retryAfter = e.headers?.['retry-after'];
        throw new SmsSendError(`Twilio: ${e.message}${e.code ? ` (error ${e.code})` : ''}`, typeof e.status === 'number' ? e.status : null, retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null);
      }
    },
  };
}

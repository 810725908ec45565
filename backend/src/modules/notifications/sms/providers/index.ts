import type { Config } from '../../../../platform/config';
import type { SmsProvider } from './sms-provider';
import { twilioProvider } from './twilio.provider';
import { outboxSmsProvider } from './outbox.provider';

export type { SmsProvider, SmsMessage, SentSms } from './sms-provider';
export { SmsSendError } from './sms-provider';
export { smsOutboxDir } from './outbox.provider';

const providers = new WeakMap<Config, SmsProvider>();

/** Twilio when its credentials are configured, else the outbox (config.providers.sms says which). */
export function smsProviderFor(config: Config): SmsProvider {
  let p = providers.get(config);
  if (!p) {
    p = config.providers.sms === 'twilio' ? twilioProvider(config) : outboxSmsProvider(config);
    providers.set(config, p);
  }
  return p;
}

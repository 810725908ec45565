import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import type { Queue } from '../../../platform/jobs/queue';
import { createSafeFetch, type SafeFetch } from '../../../platform/outbound/http';
import { mailerFor, type Mailer } from '../../../platform/email/mailer';
import { createSecretBox, type SecretBox } from '../../../platform/crypto/secret-box';
import { smsProviderFor, type SmsProvider } from '../sms/providers';

export interface DeliveryDeps {
  db: Db;
  config: Config;
  logger: Logger;
  queue: Pick<Queue, 'send' | 'sendMany'>;
  safeFetch: SafeFetch;
  mailer: Mailer;
  box: SecretBox;
  /** Where texts go (tests hand in their own). */
  sms?: SmsProvider;
  now?: () => Date;
}

export interface DeliveryTransports {
  safeFetch: SafeFetch;
  mailer: Mailer;
  box: SecretBox;
  sms: SmsProvider;
}

// One set per configuration (one per process in practice): the safe client keeps its connection pool.
const transports = new WeakMap<Config, DeliveryTransports>();

/**
 * The transports deliveries use: the SSRF-safe client with the delivery timeout and no redirects
 * followed (a redirect is the receiver's answer, logged and retried, never a hop to somewhere else),
 * the mailer, and the box that opens stored secrets.
 */
export function deliveryTransports(config: Config): DeliveryTransports {
  let t = transports.get(config);
  if (!t) {
    t = {
      safeFetch: createSafeFetch({ allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK, timeoutMs: config.DELIVERY_TIMEOUT_MS, maxRedirects: 0 }),
      mailer: mailerFor(config),
      box: createSecretBox(config.ENCRYPTION_KEY),
      sms: smsProviderFor(config),
    };
    transports.set(config, t);
  }
  return t;
}

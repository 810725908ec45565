import type { DeliveryChannel, DeliveryKind } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { SafeFetch } from '../../../platform/outbound/http';
import type { Mailer } from '../../../platform/email/mailer';
import type { SecretBox } from '../../../platform/crypto/secret-box';
import type { SettingsRow } from '../settings/settings.service';
import type { HookRow } from '../hooks/hooks.service';
import type { Db } from '../../../platform/db/knex';
import type { SmsProvider } from '../sms/providers';

/** One thing to deliver on one channel (a row of notification_messages). */
export interface MessageRow {
  id: number;
  agentId: number;
  leadId: number | null;
  campaignId: number | null;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  /** The REST hook of a `hook` message (null once the hook is unsubscribed). */
  hookId?: number | null;
  webhookId: string;
  payload: any;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  lastAttemptAllowed: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** What one attempt came to. Written as a row of notification_deliveries. */
export interface AttemptOutcome {
  ok: boolean;
  /** Where it went, masked: never a secret. */
  target: string | null;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  warning: string | null;
  /** The receiver's Retry-After, in seconds. */
  retryAfterSeconds: number | null;
  /** 410 Gone: the endpoint is turned off. */
  gone: boolean;
  /** Retrying cannot help (the channel is no longer set up): no further attempts. */
  permanent: boolean;
  /** Not an attempt: run this same attempt again at this time (text alerts waiting for their minute). */
  deferUntil?: Date;
}

export interface ChannelContext {
  config: Config;
  settings: SettingsRow;
  box: SecretBox;
  safeFetch: SafeFetch;
  mailer: Mailer;
  /** The agent's name and email now (through the agents module's door). */
  agent: () => Promise<{ id: number; name: string; email: string | null } | undefined>;
  /** The REST hook a `hook` message goes to (null: unsubscribed since). */
  hook?: HookRow | null;
  /** The database, for channels that keep state of their own (text alerts group the leads of a minute). */
  db?: Db;
  /** Where texts go (Twilio or the outbox). */
  sms?: SmsProvider;
  now: Date;
}

/** A delivery channel: turns a message into one attempt on its transport. */
export interface Channel {
  deliver(message: MessageRow, ctx: ChannelContext): Promise<AttemptOutcome>;
}

export const notConfigured = (what: string, target: string | null = null): AttemptOutcome => ({
  ok: false,
  target,
  statusCode: null,
  responseBody: null,
  error: what,
  warning: null,
  retryAfterSeconds: null,
  gone: false,
  permanent: true,
});

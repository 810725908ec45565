import type { DeliveryChannel, DeliveryKind } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { SafeFetch } from '../../../platform/outbound/http';
import type { Mailer } from '../../../platform/email/mailer';
import type { SecretBox } from '../../../platform/crypto/secret-box';
import type { SettingsRow } from '../settings/settings.service';
import type { HookRow } from '../hooks/hooks.service';
import type { Db } from '../../../platform/db/knex';
import type { SmsProvider } from '../sms/providers';
import type { EmailRecipient } from '../../agents';

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
  status: 'pending' | 'delivered' | 'dead' | 'waiting';
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
  /**
   * No attempt was made: the email may not go to the agent's address yet (it is not verified, DESIGN §3). The
   * message waits, and goes out once the address is verified; `notice`: the identity's MLS-published email may
   * be told, without content, that a lead came in.
   */
  waiting?: { notice: boolean };
}

export interface ChannelContext {
  config: Config;
  settings: SettingsRow;
  box: SecretBox;
  safeFetch: SafeFetch;
  mailer: Mailer;
  /** Where an email to the agent may go now, and whether that address is verified (the agents module's door). */
  recipient: () => Promise<EmailRecipient | undefined>;
  /** A one-time sign-in link to the agent's dashboard, for an email sent to `email` (the agents module's door). */
  signInLink: (email: string) => Promise<string>;
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

/** No attempt: the email waits for a verified address (see AttemptOutcome.waiting). */
export const waitingForVerifiedAddress = (notice: boolean): AttemptOutcome => ({
  ok: false,
  target: null,
  statusCode: null,
  responseBody: null,
  error: null,
  warning: null,
  retryAfterSeconds: null,
  gone: false,
  permanent: false,
  waiting: { notice },
});

/** One text to one number (E.164). */
export interface SmsMessage {
  to: string;
  body: string;
}

export interface SentSms {
  /** The provider's id of the message (Twilio's SM… sid, or the outbox file). */
  id: string;
}

/** Where texts go: Twilio, or the embedded outbox (a file per text under DATA_DIR/sms-outbox). */
export interface SmsProvider {
  readonly name: 'twilio' | 'outbox';
  send(message: SmsMessage): Promise<SentSms>;
}

/** A provider's refusal with its HTTP status (Twilio's REST errors), so the attempt log keeps it. */
export class SmsSendError extends Error {
  constructor(
    message: string,
    public readonly status: number | null,
    public readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { SMS_CODE_LENGTH, SMS_CODE_TTL_MINUTES, SMS_CONSENT_TEXT, SMS_MESSAGES, type SmsView } from '@app/contracts';
import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import { consumeRateLimit } from '../../../platform/http/rate-limit';
import { smsCodeInvalid, smsNotPending, smsSendFailed, settingsInvalid } from '../notifications.errors';
import { smsProviderFor, SmsSendError } from './providers';
import { verificationText } from './sms-text';

/** A row of notification_sms. */
export interface SmsRow {
  agentId: number;
  phone: string;
  status: 'pending' | 'active' | 'stopped';
  codeHash: string | null;
  codeExpiresAt: Date | null;
  codeAttempts: number;
  consentAt: Date | null;
  consentText: string | null;
  consentIp: string | null;
  stoppedAt: Date | null;
  lastSentAt: Date | null;
}

/** Codes texted per agent: 3 in 10 minutes (each is a text someone pays for, to a number someone typed). */
export const SMS_CODE_LIMIT = { name: 'sms-code', points: 3, durationSeconds: 10 * 60 } as const;
/** Wrong codes allowed for one code before another must be sent. */
export const SMS_CODE_MAX_ATTEMPTS = 5;

/**
 * The words carriers treat as an opt-out or opt-in (CTIA; Twilio's defaults). Matched on the whole
 * message, trimmed and upper-cased, as Twilio does.
 */
export const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
export const START_WORDS = new Set(['START', 'YES', 'UNSTOP']);

export async function loadSms(db: Db | Knex.Transaction, agentId: number): Promise<SmsRow | undefined> {
  return (await db('notificationSms').where({ agentId }).first()) as SmsRow | undefined;
}

/** Whether the agent gets a text per lead (the lead hand-over asks). */
export async function smsActive(db: Db | Knex.Transaction, agentId: number): Promise<boolean> {
  return !!(await db('notificationSms').where({ agentId, status: 'active' }).first('agentId'));
}

export function presentSms(config: Config, row: SmsRow | undefined): SmsView {
  const provider = config.providers.sms;
  if (!row) return { phone: null, status: 'off', consentAt: null, codeExpiresAt: null, provider };
  const parsed = parsePhoneNumberFromString(row.phone);
  return {
    phone: parsed ? parsed.formatNational() : row.phone,
    status: row.status,
    consentAt: row.consentAt ? new Date(row.consentAt).toISOString() : null,
    codeExpiresAt: row.status === 'pending' && row.codeExpiresAt ? new Date(row.codeExpiresAt).toISOString() : null,
    provider,
  };
}

/** A US number as E.164 (+1…), or a 400 on the phone field. */
export function normalizeUsPhone(raw: string): string {
  const parsed = parsePhoneNumberFromString(raw, 'US');
  if (!parsed || !parsed.isValid() || parsed.countryCallingCode !== '1') throw settingsInvalid({ phone: SMS_MESSAGES.phone });
  return parsed.number;
}

const hashCode = (config: Config, agentId: number, code: string) =>
  crypto.createHmac('sha256', config.SESSION_SECRET ?? config.ENCRYPTION_KEY ?? 'listing-ads').update(`${agentId}:${code}`).digest('hex');

/**
 * Opt-in, step 1: text a one-time code to the number. The code is stored only as an HMAC; a new number (or a
 * new code) starts over, so texts go only to a number whose owner typed its code back. A number that is
 * already active and unchanged keeps working until the new code is entered.
 */
export async function startSmsVerification(deps: { db: Db; config: Config }, agentId: number, phoneInput: string): Promise<SmsView> {
  const phone = normalizeUsPhone(phoneInput);
  await consumeRateLimit(deps.db, SMS_CODE_LIMIT, `agent:${agentId}`);
  const code = String(crypto.randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
  const pending = {
    phone,
    status: 'pending' as const,
    codeHash: hashCode(deps.config, agentId, code),
    codeExpiresAt: new Date(Date.now() + SMS_CODE_TTL_MINUTES * 60_000),
    codeAttempts: 0,
    // A number being (re)verified has no consent yet: the consent belongs to the number it was given for.
    consentAt: null,
    consentText: null,
    consentIp: null,
    stoppedAt: null,
  };
  await deps.db('notificationSms')
    .insert({ agentId, ...pending })
    .onConflict('agentId')
    .merge({ ...pending, updatedAt: deps.db.fn.now() });
  try {
    await smsProviderFor(deps.config).send({ to: phone, body: verificationText(code, SMS_CODE_TTL_MINUTES) });
  } catch (err) {
    throw smsSendFailed(err instanceof SmsSendError ? err.message : (err as Error).message);
  }
  return presentSms(deps.config, await loadSms(deps.db, agentId));
}

/**
 * Opt-in, step 2: the code texted to the number. Right: text alerts are on, with the consent stored (when,
 * the exact text shown beside the number, from which address). Wrong: counted; after 5, a new code is needed.
 */
export async function verifySmsCode(deps: { db: Db; config: Config }, agentId: number, code: string, ip: string): Promise<SmsView> {
  return deps.db.transaction(async (trx) => {
    const row = (await trx('notificationSms').where({ agentId }).forUpdate().first()) as SmsRow | undefined;
    if (!row || row.status !== 'pending' || !row.codeHash) throw smsNotPending();
    if (!row.codeExpiresAt || new Date(row.codeExpiresAt).getTime() < Date.now() || row.codeAttempts >= SMS_CODE_MAX_ATTEMPTS) throw smsCodeInvalid(SMS_MESSAGES.codeExpired);
    const expected = Buffer.from(row.codeHash, 'hex');
    const given = Buffer.from(hashCode(deps.config, agentId, code), 'hex');
    if (!crypto.timingSafeEqual(expected, given)) {
      await trx('notificationSms').where({ agentId }).update({ codeAttempts: row.codeAttempts + 1, updatedAt: trx.fn.now() });
      throw smsCodeInvalid(SMS_MESSAGES.codeWrong);
    }
    await trx('notificationSms')
      .where({ agentId })
      .update({ status: 'active', codeHash: null, codeExpiresAt: null, codeAttempts: 0, consentAt: trx.fn.now(), consentText: SMS_CONSENT_TEXT, consentIp: ip || null, updatedAt: trx.fn.now() });
    return presentSms(deps.config, (await loadSms(trx, agentId))!);
  });
}

/** Text alerts off: the number and its state are removed (the consent history stays in the audit log). */
export async function turnSmsOff(db: Db, agentId: number): Promise<void> {
  await db('notificationSms').where({ agentId }).delete();
}

/**
 * An inbound text from a number (Twilio's webhook): STOP and the other opt-out words pause every agent with
 * that number at once; START resumes those that had given consent. Anything else changes nothing.
 */
export async function applyInboundSms(db: Db, from: string, body: string): Promise<{ action: 'stop' | 'start' | null; agentIds: number[] }> {
  const word = body.trim().toUpperCase().replace(/\s+/g, '');
  const action = STOP_WORDS.has(word) ? 'stop' : START_WORDS.has(word) ? 'start' : null;
  if (!action) return { action, agentIds: [] };
  const phone = parsePhoneNumberFromString(from, 'US')?.number ?? from;
  if (action === 'stop') {
    // A code not yet entered dies with the STOP too: nobody can turn texts on for this number without a new code.
    await db('notificationSms').where({ phone, status: 'pending' }).update({ codeHash: null, codeExpiresAt: null, updatedAt: db.fn.now() });
  }
  const rows =
    action === 'stop'
      ? await db('notificationSms').where({ phone, status: 'active' }).update({ status: 'stopped', stoppedAt: db.fn.now(), updatedAt: db.fn.now() }).returning('agentId')
      : await db('notificationSms').where({ phone, status: 'stopped' }).whereNotNull('consentAt').update({ status: 'active', stoppedAt: null, updatedAt: db.fn.now() }).returning('agentId');
  return { action, agentIds: rows.map((r: { agentId: number }) => r.agentId) };
}

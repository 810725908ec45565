import type { LeadDelivery } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import type { AttemptOutcome, Channel } from './channel';
import { notConfigured } from './channel';
import { RESPONSE_BODY_LIMIT } from './http-attempt';
import { publicOrigin } from '../emails/templates';
import { leadAlertText, maskPhone } from '../sms/sms-text';
import { smsProviderFor, SmsSendError } from '../sms/providers';

/** At most one text a minute per agent. */
export const SMS_WINDOW_SECONDS = 60;

type Decision =
  | { kind: 'off'; reason: string }
  | { kind: 'wait'; until: Date; phone: string }
  | { kind: 'covered'; phone: string; leadCount: number; firstLeadId: number | null }
  | { kind: 'send'; phone: string; textId: number; body: string; leadCount: number };

const ok = (target: string, responseBody: string): AttemptOutcome => ({
  ok: true,
  target,
  statusCode: null,
  responseBody: responseBody.slice(0, RESPONSE_BODY_LIMIT),
  error: null,
  warning: null,
  retryAfterSeconds: null,
  gone: false,
  permanent: false,
});

/**
 * Decide under the lock of the agent's text-alert row, so every process agrees: texts are off or stopped;
 * this lead already went out in a text (grouped into another lead's, or this is a retry of its own); the
 * minute since the last text has not passed (wait); or make the next text with every lead still waiting
 * for one, this one included, and take the minute.
 */
async function decide(db: Db, agentId: number, messageId: number, dashboardUrl: string): Promise<Decision> {
  return db.transaction(async (trx) => {
    const sms = await trx('notificationSms')
      .where({ agentId })
      .forUpdate()
      .first('phone', 'status', trx.raw(`extract(epoch from (last_sent_at + make_interval(secs => ?) - now()))::float8 as wait_seconds`, [SMS_WINDOW_SECONDS]));
    if (!sms || sms.status !== 'active') {
      return { kind: 'off', reason: sms?.status === 'stopped' ? 'The agent replied STOP: texts are paused until START' : 'Text alerts are off' };
    }
    const own = await trx('notificationMessages').where({ id: messageId }).first('smsTextId');
    if (own?.smsTextId) {
      const text = await trx('notificationSmsTexts').where({ id: own.smsTextId }).first();
      if (Number(text.messageId) === messageId) return { kind: 'send', phone: sms.phone, textId: Number(text.id), body: text.body, leadCount: text.leadIds.length };
      return { kind: 'covered', phone: sms.phone, leadCount: text.leadIds.length, firstLeadId: text.leadIds[0] ?? null };
    }
    if (sms.waitSeconds != null && sms.waitSeconds > 0) return { kind: 'wait', until: new Date(Date.now() + Math.ceil(sms.waitSeconds * 1000)), phone: sms.phone };
    const waiting = (await trx('notificationMessages')
      .where({ agentId, channel: 'sms', status: 'pending' })
      .whereNull('smsTextId')
      .orderBy('id')
      .select('id', 'leadId', 'payload')) as { id: string; leadId: number; payload: { data: LeadDelivery } }[];
    if (!waiting.some((w) => Number(w.id) === messageId)) return { kind: 'off', reason: 'This text alert is no longer waiting to be sent' };
    const body = leadAlertText(
      waiting.map((w) => w.payload.data),
      dashboardUrl,
    );
    const [text] = await trx('notificationSmsTexts')
      .insert({ agentId, messageId, body, leadIds: waiting.map((w) => w.leadId) })
      .returning('id');
    await trx('notificationMessages')
      .whereIn('id', waiting.map((w) => w.id))
      .update({ smsTextId: text.id, updatedAt: trx.fn.now() });
    await trx('notificationSms').where({ agentId }).update({ lastSentAt: trx.fn.now(), updatedAt: trx.fn.now() });
    return { kind: 'send', phone: sms.phone, textId: Number(text.id), body, leadCount: waiting.length };
  });
}

/**
 * Text alerts to the agent (Twilio, or the SMS outbox): at most one text a minute per agent, the leads of that
 * minute grouped into one text. Each lead has its sms message: the first in a minute sends a text at once;
 * later ones wait (deferUntil, no attempt used) until the minute has passed, then the first of them to run
 * sends one text for all that waited, and the others find they went out in it. A STOP stops it at once.
 */
export const smsChannel: Channel = {
  async deliver(message, ctx) {
    if (!ctx.db) throw new Error('the sms channel needs the database');
    const decision = await decide(ctx.db, message.agentId, message.id, `${publicOrigin(ctx.config)}/dashboard`);
    if (decision.kind === 'off') return notConfigured(decision.reason);
    const target = maskPhone(decision.phone);
    if (decision.kind === 'wait') return { ...notConfigured('Waiting for the one-text-a-minute window', target), permanent: false, deferUntil: decision.until };
    if (decision.kind === 'covered') return ok(target, `Sent in the text for lead #${decision.firstLeadId} (${decision.leadCount} leads in one text)`);
    const provider = ctx.sms ?? smsProviderFor(ctx.config);
    try {
      const sent = await provider.send({ to: decision.phone, body: decision.body });
      await ctx.db('notificationSmsTexts').where({ id: decision.textId }).update({ providerId: sent.id });
      return ok(target, `${provider.name}: ${sent.id} (${decision.leadCount} lead${decision.leadCount === 1 ? '' : 's'})`);
    } catch (err) {
      const e = err instanceof SmsSendError ? err : new SmsSendError((err as Error).message, null);
      return { ok: false, target, statusCode: e.status, responseBody: null, error: e.message, warning: null, retryAfterSeconds: e.retryAfterSeconds, gone: false, permanent: false };
    }
  },
};

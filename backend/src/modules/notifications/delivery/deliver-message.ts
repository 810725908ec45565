import crypto from 'node:crypto';
import { z } from 'zod';
import type { Knex } from 'knex';
import {
  DELIVERY_MAX_ATTEMPTS,
  DELIVERY_RETRY_SCHEDULE_SECONDS,
  type DeliveryChannel,
  type DeliveryKind,
  type DeliveryStatus,
} from '@app/contracts';
import { defineJob } from '../../../platform/jobs/job';
import type { Queue } from '../../../platform/jobs/queue';
import type { Config } from '../../../platform/config';
import { recordDeliveryAttempt } from '../../../platform/metrics';
import { emailRecipientOf, issueSignInLink } from '../../agents';
import { publicOrigin, type LeadNoticePayload } from '../emails/templates';
import { CHANNELS } from '../channels';
import type { AttemptOutcome, MessageRow } from '../channels/channel';
import { defaultSettings, disableChannel, loadSettings } from '../settings/settings.service';
import { deleteHook, loadHookForDelivery } from '../hooks/hooks.service';
import { deliveryTransports, type DeliveryDeps } from './delivery-deps';

export const DELIVER_JOB_NAME = 'notifications.deliver';

export const deliverPayload = z.object({
  messageId: z.number().int().positive(),
  /** 1-based: which attempt of the message this job makes. A job whose attempt was already made does nothing. */
  attempt: z.number().int().positive(),
});

/** Longest a receiver may take past the delivery timeout before another worker may try the same attempt. */
const LEASE_MARGIN_SECONDS = 30;

/** A Standard Webhooks message id: `msg_` and 128 random bits. */
export const newWebhookId = () => `msg_${crypto.randomBytes(16).toString('base64url')}`;

/**
 * notifications.deliver {messageId, attempt}: one attempt of one message on its channel. The retry
 * schedule is ours, not pg-boss's: a failed attempt enqueues the next one (in the transaction that
 * records the failure) to start after the Standard Webhooks delay. pg-boss's own retries only cover a
 * handler that crashed before it could record the attempt.
 */
export const deliverJob = defineJob({
  name: DELIVER_JOB_NAME,
  payload: deliverPayload,
  // A worker killed outright: its attempts are failed (and retried, once the message's lease is over) after 10 s
  // without a heartbeat, not after the 2 minutes of expiry.
  options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120, heartbeatSeconds: 10 },
  // Attempts hold no connection while they wait on a receiver: a full batch runs at once.
  batchSize: 50,
  async handler({ messageId, attempt }, ctx) {
    await attemptDelivery({ db: ctx.db, config: ctx.config, logger: ctx.logger, queue: ctx.queue, ...deliveryTransports(ctx.config) }, messageId, attempt);
  },
});

/** The clock hour a lead notice counts against (`notification_messages_notice_hour_unique`: one an hour). */
const noticeHour = (now: Date) => now.toISOString().slice(0, 13);

/**
 * An email that may not go to the agent's address yet (DESIGN §3): the message waits, with no attempt made or
 * counted, until the address is verified (`releaseWaitingEmails`). A lead for an MLS identity nobody verified
 * makes the content-free notice to the MLS-published email instead, at most one in any hour. The agent is read again
 * under a share lock after the message is marked: a verification that committed meanwhile (its release found no
 * waiting message yet) is seen here and the message goes on at once; one still running waits for this.
 */
async function holdForVerifiedAddress(deps: DeliveryDeps, message: MessageRow, notice: boolean, now: Date): Promise<void> {
  await deps.db.transaction(async (trx) => {
    await trx('notificationMessages').where({ id: message.id }).update({ status: 'waiting', leaseUntil: null, nextAttemptAt: null, updatedAt: trx.fn.now() });
    const recipient = await emailRecipientOf(message.agentId, trx);
    if (recipient?.kind === 'verified') {
      await trx('notificationMessages').where({ id: message.id }).update({ status: 'pending', nextAttemptAt: trx.fn.now() });
      await deps.queue.send(deliverJob, { messageId: message.id, attempt: message.attempts + 1 }, { trx });
      return;
    }
    if (notice && recipient?.kind === 'mls') {
      // At most one notice in any hour: the agent's notices are looked at under a lock of their own (the unique
      // index on the clock hour backs it in the database).
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`lead-notice:${message.agentId}`]);
      const recent = await trx('notificationMessages')
        .where({ agentId: message.agentId, kind: 'lead.notice' })
        .where('createdAt', '>', trx.raw(`now() - interval '1 hour'`))
        .first('id');
      if (recent) return;
      const listing = message.payload?.data?.listing as { address?: string; city?: string; state?: string } | undefined;
      const payload: LeadNoticePayload = {
        hour: noticeHour(now),
        listingAddress: [listing?.address, listing?.city, listing?.state].filter(Boolean).join(', ') || 'your listing',
      };
      await createMessage(deps.queue, trx, { agentId: message.agentId, kind: 'lead.notice', channel: 'email', payload });
    }
  });
  deps.logger.info({ messageId: message.id, kind: message.kind, notice }, 'email waits for a verified address');
}

/**
 * The agent's address was just verified (the agents module's hook, in its transaction): every email that waited
 * for it goes out now, each as its next attempt.
 */
export async function releaseWaitingEmails(queue: Pick<Queue, 'sendMany'>, trx: Knex.Transaction, agentId: number): Promise<number> {
  const rows = (await trx('notificationMessages')
    .where({ agentId, status: 'waiting' })
    .update({ status: 'pending', nextAttemptAt: trx.fn.now(), updatedAt: trx.fn.now() })
    .returning(['id', 'attempts'])) as { id: string | number; attempts: number }[];
  if (rows.length) await queue.sendMany(deliverJob, rows.map((r) => ({ messageId: Number(r.id), attempt: r.attempts + 1 })), { trx });
  return rows.length;
}

/** Seconds before attempt `next` (2-based), stretched to the receiver's Retry-After, then scaled (tests). */
export function retryDelaySeconds(config: Pick<Config, 'DELIVERY_RETRY_TIME_SCALE'>, nextAttempt: number, retryAfterSeconds: number | null): number {
  const scheduled = DELIVERY_RETRY_SCHEDULE_SECONDS[Math.min(nextAttempt - 1, DELIVERY_MAX_ATTEMPTS - 1)];
  // A Retry-After longer than the longest gap of the schedule is capped there.
  const wanted = Math.max(scheduled, Math.min(retryAfterSeconds ?? 0, DELIVERY_RETRY_SCHEDULE_SECONDS[DELIVERY_MAX_ATTEMPTS - 1]));
  return wanted * config.DELIVERY_RETRY_TIME_SCALE;
}

/** A message to create: who it is for, what it says, and on which channel. */
export interface NewMessage {
  agentId: number;
  leadId?: number | null;
  campaignId?: number | null;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  payload: unknown;
  lastAttemptAllowed?: number;
}

function messageRow(trx: Knex.Transaction, m: NewMessage) {
  return {
    agentId: m.agentId,
    leadId: m.leadId ?? null,
    campaignId: m.campaignId ?? null,
    kind: m.kind,
    channel: m.channel,
    webhookId: newWebhookId(),
    // json (not jsonb) keeps the key order: the bytes sent are the same on every attempt.
    payload: JSON.stringify(m.payload),
    lastAttemptAllowed: m.lastAttemptAllowed ?? DELIVERY_MAX_ATTEMPTS,
    nextAttemptAt: trx.fn.now(),
  };
}

/** Insert messages (one INSERT); a message that already exists is skipped. */
async function insertMessages(trx: Knex.Transaction, messages: readonly NewMessage[]): Promise<MessageRow[]> {
  const rows = (await trx('notificationMessages')
    .insert(messages.map((m) => messageRow(trx, m)))
    .onConflict()
    .ignore()
    .returning('*')) as MessageRow[];
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Create a message and enqueue its first attempt, in the caller's transaction. */
export async function createMessage(
  queue: Pick<Queue, 'send'>,
  trx: Knex.Transaction,
  m: NewMessage,
  opts: { enqueue?: boolean } = {},
): Promise<MessageRow | null> {
  const [row] = await insertMessages(trx, [m]);
  if (!row) return null;
  if (opts.enqueue !== false) await queue.send(deliverJob, { messageId: row.id, attempt: 1 }, { trx });
  return row;
}

/** Create many messages and enqueue their first attempts (one INSERT each), in the caller's transaction. */
export async function createMessages(queue: Pick<Queue, 'sendMany'>, trx: Knex.Transaction, messages: readonly NewMessage[]): Promise<MessageRow[]> {
  if (!messages.length) return [];
  const rows = await insertMessages(trx, messages);
  if (rows.length) await queue.sendMany(deliverJob, rows.map((r) => ({ messageId: r.id, attempt: 1 })), { trx });
  return rows;
}

export interface AttemptResult {
  /** false: this attempt was already made (a job that ran twice), the message is finished, or it was deferred. */
  made: boolean;
  /** The channel asked to make this attempt later (text alerts waiting for their minute). */
  deferredUntil?: Date;
  deliveryId?: number;
  status?: DeliveryStatus;
  outcome?: AttemptOutcome;
  durationMs?: number;
}

/**
 * Make attempt `attempt` of a message, exactly once: a conditional UPDATE takes a lease on the message
 * (status pending, attempts = attempt − 1, no live lease); the attempt row's unique key
 * (event_id, channel, attempt) backs it. Settings are read now, so a retry or replay uses the current URL
 * and secret; the payload was fixed when the message was made.
 */
export async function attemptDelivery(deps: DeliveryDeps, messageId: number, attempt: number): Promise<AttemptResult> {
  const { db, config, logger } = deps;
  const leaseSeconds = Math.ceil(config.DELIVERY_TIMEOUT_MS / 1000) + LEASE_MARGIN_SECONDS;
  const [message] = (await db('notificationMessages')
    .where({ id: messageId, status: 'pending', attempts: attempt - 1 })
    .andWhere((q) => q.whereNull('leaseUntil').orWhere('leaseUntil', '<', db.fn.now()))
    .update({ leaseUntil: db.raw(`now() + make_interval(secs => ?)`, [leaseSeconds]), updatedAt: db.fn.now() })
    .returning('*')) as MessageRow[];
  if (!message) {
    const current = (await db('notificationMessages').where({ id: messageId }).first()) as MessageRow | undefined;
    if (current && current.status === 'pending' && current.attempts === attempt - 1) {
      // Another worker holds this very attempt: let pg-boss run this job again once its lease has run out.
      throw new Error(`attempt ${attempt} of message ${messageId} is in flight elsewhere`);
    }
    return { made: false };
  }
  message.id = Number(message.id);
  message.hookId = message.hookId == null ? null : Number(message.hookId);

  const now = deps.now?.() ?? new Date();
  // A REST hook carries its own URL and secret: it needs the hook (and its key's liveness), not the agent's settings.
  const isHook = message.channel === 'hook';
  const settings = isHook ? defaultSettings(message.agentId) : await loadSettings(db, message.agentId);
  const hook = isHook && message.hookId ? ((await loadHookForDelivery(db, message.hookId)) ?? null) : null;
  const started = performance.now();
  let outcome: AttemptOutcome;
  try {
    outcome = await CHANNELS[message.channel].deliver(message, {
      config,
      settings,
      box: deps.box,
      safeFetch: deps.safeFetch,
      mailer: deps.mailer,
      recipient: () => emailRecipientOf(message.agentId),
      signInLink: (email) => issueSignInLink(db, publicOrigin(config), { agentId: message.agentId, email }),
      hook,
      db,
      sms: deps.sms,
      now,
    });
  } catch (err) {
    // A channel bug or an unreadable secret: logged as a failed attempt, retried like any other.
    outcome = { ok: false, target: null, statusCode: null, responseBody: null, error: `internal: ${(err as Error).message}`, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
  }
  const durationMs = Math.round(performance.now() - started);
  if (outcome.waiting) {
    await holdForVerifiedAddress(deps, message, outcome.waiting.notice, now);
    return { made: false };
  }

  if (outcome.deferUntil) {
    // Not an attempt: the same attempt runs again then (its lease is given back, no row is written).
    const until = outcome.deferUntil;
    await db.transaction(async (trx) => {
      await deps.queue.send(deliverJob, { messageId: message.id, attempt }, { trx, startAfter: until });
      await trx('notificationMessages').where({ id: message.id }).update({ leaseUntil: null, nextAttemptAt: until, updatedAt: trx.fn.now() });
    });
    return { made: false, deferredUntil: until };
  }

  const last = attempt >= message.lastAttemptAllowed || outcome.permanent;
  const status: DeliveryStatus = outcome.ok ? 'succeeded' : outcome.gone ? 'disabled' : last ? 'dead' : 'failed';

  const deliveryId = await db.transaction(async (trx) => {
    const [row] = await trx('notificationDeliveries')
      .insert({
        agentId: message.agentId,
        leadId: message.leadId,
        messageId: message.id,
        kind: message.kind,
        channel: message.channel,
        eventId: message.webhookId,
        attempt,
        status,
        target: outcome.target,
        responseCode: outcome.statusCode,
        responseBody: outcome.responseBody,
        error: outcome.error,
        warning: outcome.warning,
        durationMs,
      })
      .onConflict(['eventId', 'channel', 'attempt'])
      .ignore()
      .returning('id');
    if (!row) return null;

    let nextAttemptAt: Date | null = null;
    if (status === 'failed') {
      nextAttemptAt = new Date(now.getTime() + retryDelaySeconds(config, attempt + 1, outcome.retryAfterSeconds) * 1000);
      await deps.queue.send(deliverJob, { messageId: message.id, attempt: attempt + 1 }, { trx, startAfter: nextAttemptAt });
    }
    await trx('notificationMessages')
      .where({ id: message.id })
      .update({
        attempts: attempt,
        status: status === 'succeeded' ? 'delivered' : status === 'failed' ? 'pending' : 'dead',
        nextAttemptAt,
        leaseUntil: null,
        updatedAt: trx.fn.now(),
      });

    // Tell the agent: the endpoint is gone, or a lead could not be delivered after every scheduled attempt.
    // Emails about emails would fail the same way, and a test send is answered on the spot.
    const tellAgent = message.channel !== 'email' && message.kind !== 'lead.test';
    if (status === 'disabled' && message.channel === 'hook') {
      // A REST hook's 410 is how Zapier, Make and n8n say "unsubscribed": the hook goes, and nobody needs an email.
      if (message.hookId) await deleteHook(trx, message.hookId);
    } else if (status === 'disabled') {
      await disableChannel(trx, message.agentId, message.channel);
      if (tellAgent) {
        await createMessage(deps.queue, trx, { agentId: message.agentId, kind: 'endpoint.disabled', channel: 'email', payload: { channel: message.channel, target: outcome.target } });
      }
    }
    if (status === 'dead' && tellAgent && !outcome.permanent && attempt === DELIVERY_MAX_ATTEMPTS) {
      await createMessage(deps.queue, trx, {
        agentId: message.agentId,
        kind: 'delivery.dead',
        channel: 'email',
        payload: {
          channel: message.channel,
          target: outcome.target,
          attempts: attempt,
          lastError: outcome.error,
          leadName: message.payload?.data?.lead?.name ?? null,
          webhookId: message.webhookId,
        },
      });
    }
    return Number(row.id);
  });
  if (deliveryId === null) return { made: false };
  recordDeliveryAttempt(message.channel, message.kind, status);
  logger.info({ messageId: message.id, channel: message.channel, kind: message.kind, attempt, status, code: outcome.statusCode, ms: durationMs }, 'delivery attempt');
  return { made: true, deliveryId, status, outcome, durationMs };
}

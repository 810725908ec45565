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
import { findAgent } from '../../agents';
import { CHANNELS } from '../channels';
import type { AttemptOutcome, MessageRow } from '../channels/channel';
import { disableChannel, loadSettings } from '../settings/settings.service';
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

export interface AttemptResult {
  /** false: this attempt was already made (a job that ran twice) or the message is finished. */
  made: boolean;
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

  const now = deps.now?.() ?? new Date();
  const settings = await loadSettings(db, message.agentId);
  const started = performance.now();
  let outcome: AttemptOutcome;
  try {
    outcome = await CHANNELS[message.channel].deliver(message, {
      config,
      settings,
      box: deps.box,
      safeFetch: deps.safeFetch,
      mailer: deps.mailer,
      agent: async () => {
        const a = await findAgent(message.agentId);
        return a ? { id: a.id, name: a.name, email: a.email } : undefined;
      },
      now,
    });
  } catch (err) {
    // A channel bug or an unreadable secret: logged as a failed attempt, retried like any other.
    outcome = { ok: false, target: null, statusCode: null, responseBody: null, error: `internal: ${(err as Error).message}`, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
  }
  const durationMs = Math.round(performance.now() - started);

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
    if (status === 'disabled') {
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
  logger.info({ messageId: message.id, channel: message.channel, kind: message.kind, attempt, status, code: outcome.statusCode, ms: durationMs }, 'delivery attempt');
  return { made: true, deliveryId, status, outcome, durationMs };
}

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
import { emailRecipientOf, emailRecipientsOf, issueSignInLinks } from '../../agents';
import { publicOrigin, type LeadNoticePayload } from '../emails/templates';
import { CHANNELS } from '../channels';
import type { AttemptOutcome, MessageRow } from '../channels/channel';
import { defaultSettings, disableChannel, loadSettingsOf } from '../settings/settings.service';
import { deleteHook, loadHooksForDelivery } from '../hooks/hooks.service';
import { deliveryTransports, type DeliveryDeps } from './delivery-deps';
import type { SecretBox } from '../../../platform/crypto/secret-box';

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
  // A fetch's attempts together: a constant number of statements per fetch instead of about seven per attempt.
  async batchHandler(jobs, ctx) {
    const deps = { db: ctx.db, config: ctx.config, logger: ctx.logger, queue: ctx.queue, ...deliveryTransports(ctx.config) };
    const results = await attemptDeliveries(deps, jobs.map((j) => ({ messageId: j.payload.messageId, attempt: j.payload.attempt, run: j.run })));
    return results.map((r) => (r instanceof Error ? r : undefined));
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

/** One attempt asked of `attemptDeliveries`: `run` makes the channel's call as the asking job's own (its trace). */
export interface AttemptAsked {
  messageId: number;
  attempt: number;
  run?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Make attempt `attempt` of a message, exactly once (`attemptDeliveries` of one): an error is thrown, for the job to
 * be run again.
 */
export async function attemptDelivery(deps: DeliveryDeps, messageId: number, attempt: number): Promise<AttemptResult> {
  const [result] = await attemptDeliveries(deps, [{ messageId, attempt }]);
  if (result instanceof Error) throw result;
  return result;
}

/** A message as leased: numbers where the driver gives bigint strings. */
const leasedRow = (row: MessageRow): MessageRow => ({ ...row, id: Number(row.id), agentId: Number(row.agentId), hookId: row.hookId == null ? null : Number(row.hookId) });

/**
 * Sign-in links asked for during one tick (the fetch's email channels, all started at once), issued together: two
 * statements for the fetch (agents' issueSignInLinks) instead of two per email.
 */
function signInLinksOfTick(db: DeliveryDeps['db'], baseUrl: string): (agentId: number, email: string) => Promise<string> {
  let asked: { agentId: number; email: string; resolve: (link: string) => void; reject: (err: unknown) => void }[] = [];
  const flush = () => {
    const taken = asked;
    asked = [];
    issueSignInLinks(db, baseUrl, taken).then(
      (links) => taken.forEach((a, i) => a.resolve(links[i])),
      (err) => taken.forEach((a) => a.reject(err)),
    );
  };
  return (agentId, email) =>
    new Promise((resolve, reject) => {
      if (!asked.length) setImmediate(flush);
      asked.push({ agentId, email, resolve, reject });
    });
}

/**
 * The fetch's box: each stored secret opened once per fetch (its messages mostly share an agent and its secret), and
 * forgotten with it: a secret changed since is read anew by the next fetch.
 */
function openingOncePerFetch(box: SecretBox): SecretBox {
  const opened = new Map<string, string>();
  return {
    seal: (plain) => box.seal(plain),
    open(sealed) {
      let plain = opened.get(sealed);
      if (plain === undefined) opened.set(sealed, (plain = box.open(sealed)));
      return plain;
    },
  };
}

/**
 * Make the attempts of a fetch of deliver jobs, each exactly once: a conditional UPDATE leases every message at once
 * (status pending, attempts = attempt − 1, no live lease), the settings, hooks and email recipients they need are
 * read in one statement each, the channel calls run concurrently, and one transaction writes every attempt row (its
 * unique key (event_id, channel, attempt) backs the lease), every message's new state and the retries. Settings
 * are read now, so a retry or replay uses the current URL and secret; the payload was fixed when the message was
 * made. Answers per asked attempt, in order: its result, or the Error its job fails with (another worker holds
 * the attempt, or its own step failed): one attempt's error leaves the others alone.
 */
export async function attemptDeliveries(deps: DeliveryDeps, asked: readonly AttemptAsked[]): Promise<(AttemptResult | Error)[]> {
  const { db, config, logger } = deps;
  const results: (AttemptResult | Error)[] = asked.map(() => ({ made: false }));
  // The same attempt asked twice in one fetch (pg-boss may run a job twice): the first makes it, the other finds it made.
  const firstOf = new Map<string, number>();
  asked.forEach((a, i) => {
    const key = `${a.messageId}:${a.attempt}`;
    if (!firstOf.has(key)) firstOf.set(key, i);
  });
  const unique = [...firstOf.values()];
  if (!unique.length) return results;

  const leaseSeconds = Math.ceil(config.DELIVERY_TIMEOUT_MS / 1000) + LEASE_MARGIN_SECONDS;
  const leased = ((await db('notificationMessages')
    .whereIn('id', unique.map((i) => asked[i].messageId))
    .whereRaw('(id, attempts + 1) in (select * from unnest(?::bigint[], ?::int[]))', [unique.map((i) => asked[i].messageId), unique.map((i) => asked[i].attempt)])
    .where({ status: 'pending' })
    .andWhere((q) => q.whereNull('leaseUntil').orWhere('leaseUntil', '<', db.fn.now()))
    .update({ leaseUntil: db.raw(`now() + make_interval(secs => ?)`, [leaseSeconds]), updatedAt: db.fn.now() })
    .returning('*')) as MessageRow[]).map(leasedRow);
  const byId = new Map(leased.map((m) => [m.id, m]));
  const mine = unique.filter((i) => byId.get(asked[i].messageId)?.attempts === asked[i].attempt - 1);

  const missed = unique.filter((i) => !mine.includes(i));
  if (missed.length) {
    const current = (await db('notificationMessages').whereIn('id', missed.map((i) => asked[i].messageId)).select('id', 'status', 'attempts')) as Pick<MessageRow, 'id' | 'status' | 'attempts'>[];
    const now = new Map(current.map((m) => [Number(m.id), m]));
    for (const i of missed) {
      const m = now.get(asked[i].messageId);
      // Another worker holds this very attempt: its job runs again once that lease has run out.
      if (m && m.status === 'pending' && m.attempts === asked[i].attempt - 1) results[i] = new Error(`attempt ${asked[i].attempt} of message ${asked[i].messageId} is in flight elsewhere`);
    }
  }
  if (!mine.length) return results;

  const now = deps.now?.() ?? new Date();
  // A REST hook carries its own URL and secret: it needs the hook (and its key's liveness), not the agent's settings.
  const messages = mine.map((i) => byId.get(asked[i].messageId)!);
  const [settingsOf, hooks, recipients] = await Promise.all([
    loadSettingsOf(db, messages.filter((m) => m.channel !== 'hook').map((m) => m.agentId)),
    loadHooksForDelivery(db, messages.filter((m) => m.channel === 'hook' && m.hookId).map((m) => m.hookId!)),
    emailRecipientsOf(messages.filter((m) => m.channel === 'email').map((m) => m.agentId)),
  ]);
  const signInLink = signInLinksOfTick(db, publicOrigin(config));
  const box = openingOncePerFetch(deps.box);

  const attempts = await Promise.all(
    mine.map(async (i) => {
      const message = byId.get(asked[i].messageId)!;
      const isHook = message.channel === 'hook';
      const run = asked[i].run ?? (<T>(work: () => Promise<T>) => work());
      const started = performance.now();
      let outcome: AttemptOutcome;
      try {
        outcome = await run(() =>
          CHANNELS[message.channel].deliver(message, {
            config,
            settings: isHook ? defaultSettings(message.agentId) : settingsOf.get(message.agentId)!,
            box,
            safeFetch: deps.safeFetch,
            mailer: deps.mailer,
            recipient: async () => recipients.get(message.agentId),
            signInLink: (email) => signInLink(message.agentId, email),
            hook: isHook && message.hookId ? (hooks.get(message.hookId) ?? null) : null,
            db,
            sms: deps.sms,
            now,
          }),
        );
      } catch (err) {
        // A channel bug or an unreadable secret: logged as a failed attempt, retried like any other.
        outcome = { ok: false, target: null, statusCode: null, responseBody: null, error: `internal: ${(err as Error).message}`, warning: null, retryAfterSeconds: null, gone: false, permanent: false };
      }
      return { i, message, outcome, run, durationMs: Math.round(performance.now() - started) };
    }),
  );

  // Not attempts: an email waiting for a verified address, a text waiting for its minute (each alone: rare).
  const made: typeof attempts = [];
  await Promise.all(
    attempts.map(async (a) => {
      const { i, message, outcome } = a;
      try {
        if (outcome.waiting) {
          await holdForVerifiedAddress(deps, message, outcome.waiting.notice, now);
        } else if (outcome.deferUntil) {
          // The same attempt runs again then (its lease is given back, no row is written).
          const until = outcome.deferUntil;
          await db.transaction(async (trx) => {
            await deps.queue.send(deliverJob, { messageId: message.id, attempt: asked[i].attempt }, { trx, startAfter: until });
            await trx('notificationMessages').where({ id: message.id }).update({ leaseUntil: null, nextAttemptAt: until, updatedAt: trx.fn.now() });
          });
          results[i] = { made: false, deferredUntil: until };
        } else {
          made.push(a);
        }
      } catch (err) {
        results[i] = err as Error;
      }
    }),
  );
  if (!made.length) return results;

  const rows = made.map(({ i, message, outcome, durationMs }) => {
    const attempt = asked[i].attempt;
    const last = attempt >= message.lastAttemptAllowed || outcome.permanent;
    const status: DeliveryStatus = outcome.ok ? 'succeeded' : outcome.gone ? 'disabled' : last ? 'dead' : 'failed';
    const nextAttemptAt = status === 'failed' ? new Date(now.getTime() + retryDelaySeconds(config, attempt + 1, outcome.retryAfterSeconds) * 1000) : null;
    return { i, message, outcome, durationMs, attempt, status, nextAttemptAt };
  });
  let written: Map<number, number>;
  try {
    // Every attempt row and its message's new state in one statement (atomic by itself); in a transaction with the
    // retries and the agent's notices when some attempt did not succeed.
    const write = async (q: DeliveryDeps['db'] | Knex.Transaction) => {
      const { rows: inserted } = (await q.raw(
        `with v as (
           select * from unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::timestamptz[])
             as v(message_id, agent_id, lead_id, kind, channel, event_id, attempt, status, target, response_code, response_body, error, warning, duration_ms, message_status, next_attempt_at)
         ), ins as (
           insert into notification_deliveries (message_id, agent_id, lead_id, kind, channel, event_id, attempt, status, target, response_code, response_body, error, warning, duration_ms)
           select message_id, agent_id, lead_id, kind, channel, event_id, attempt, status, target, response_code, response_body, error, warning, duration_ms from v
           on conflict (event_id, channel, attempt) do nothing
           returning id, message_id
         ), upd as (
           update notification_messages m
              set attempts = v.attempt, status = v.message_status, next_attempt_at = v.next_attempt_at, lease_until = null, updated_at = now()
             from ins join v on v.message_id = ins.message_id
            where m.id = ins.message_id
         )
         select id, message_id from ins`,
        [
          rows.map((r) => r.message.id),
          rows.map((r) => r.message.agentId),
          rows.map((r) => r.message.leadId),
          rows.map((r) => r.message.kind),
          rows.map((r) => r.message.channel),
          rows.map((r) => r.message.webhookId),
          rows.map((r) => r.attempt),
          rows.map((r) => r.status),
          rows.map((r) => r.outcome.target),
          rows.map((r) => r.outcome.statusCode),
          rows.map((r) => r.outcome.responseBody),
          rows.map((r) => r.outcome.error),
          rows.map((r) => r.outcome.warning),
          rows.map((r) => r.durationMs),
          rows.map((r) => (r.status === 'succeeded' ? 'delivered' : r.status === 'failed' ? 'pending' : 'dead')),
          rows.map((r) => r.nextAttemptAt?.toISOString() ?? null),
        ] as never,
      )) as { rows: { id: string; message_id: string }[] };
      // A message is leased once per fetch: its id keys its attempt.
      const ids = new Map(inserted.map((r) => [Number(r.message_id), Number(r.id)]));
      const fresh = rows.filter((r) => ids.has(r.message.id));
      return { ids, fresh };
    };
    const writeWithConsequences = async (trx: Knex.Transaction) => {
      const { ids, fresh } = await write(trx);
      const retries = fresh.filter((r) => r.status === 'failed');
      if (retries.length) {
        await deps.queue.sendMany(
          deliverJob,
          retries.map((r) => ({ messageId: r.message.id, attempt: r.attempt + 1 })),
          { trx, startAfter: retries.map((r) => r.nextAttemptAt!) },
        );
      }
      for (const r of fresh) if (r.status === 'disabled' || r.status === 'dead') await tellAboutTheEnd(deps, trx, r.message, r.outcome, r.status, r.attempt);
      return ids;
    };
    const settledAll = rows.every((r) => r.status === 'succeeded');
    written = settledAll ? (await write(db)).ids : await db.transaction((trx) => writeWithConsequences(trx));
  } catch (err) {
    // Nothing of the batch's attempts was written: each job fails and runs again (its attempt is still to make).
    for (const r of rows) results[r.i] = err as Error;
    return results;
  }
  for (const r of rows) {
    const deliveryId = written.get(r.message.id);
    if (deliveryId === undefined) continue;
    recordDeliveryAttempt(r.message.channel, r.message.kind, r.status);
    const line = { messageId: r.message.id, channel: r.message.channel, kind: r.message.kind, attempt: r.attempt, status: r.status, code: r.outcome.statusCode, ms: r.durationMs };
    // Logged as the job's own (its trace id), after the attempt is recorded.
    void made.find((a) => a.i === r.i)!.run(async () => logger.info(line, 'delivery attempt'));
    results[r.i] = { made: true, deliveryId, status: r.status, outcome: r.outcome, durationMs: r.durationMs };
  }
  return results;
}

/**
 * Tell the agent: the endpoint is gone (the channel is turned off; a REST hook is unsubscribed), or a lead could
 * not be delivered after every scheduled attempt. Emails about emails would fail the same way, and a test send is
 * answered on the spot. In the transaction that records the attempt.
 */
async function tellAboutTheEnd(deps: DeliveryDeps, trx: Knex.Transaction, message: MessageRow, outcome: AttemptOutcome, status: 'disabled' | 'dead', attempt: number): Promise<void> {
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
}

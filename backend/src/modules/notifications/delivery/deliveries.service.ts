import { DELIVERY_REPLAYS_PER_MINUTE, isReplayable, type DeliveriesQuery, type DeliveryPage, type DeliveryReplay, type DeliveryView, type LeadDelivery, type WebhookType } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import type { Queue } from '../../../platform/jobs/queue';
import type { Config } from '../../../platform/config';
import { deliveryNotFound, deliveryNotReplayable, deliveryStillRetrying, nothingToTest, testFailed } from '../notifications.errors';
import { consumeRateLimit } from '../../../platform/http/rate-limit';
import { loadSettings } from '../settings/settings.service';
import { statusText } from '../channels/http-attempt';
import { publicOrigin } from '../emails/templates';
import { attemptDelivery, createMessage, deliverJob } from './deliver-message';
import type { DeliveryDeps } from './delivery-deps';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

interface DeliveryRow {
  id: string | number;
  eventId: string;
  kind: DeliveryView['kind'];
  channel: DeliveryView['channel'];
  leadId: number | null;
  attempt: number;
  status: DeliveryView['status'];
  target: string | null;
  responseCode: number | null;
  responseBody: string | null;
  error: string | null;
  warning: string | null;
  durationMs: number | null;
  createdAt: Date;
  messageStatus: string;
  messageAttempts: number;
  nextAttemptAt: Date | null;
}

export function presentDelivery(r: DeliveryRow): DeliveryView {
  // The next automatic attempt belongs to the newest attempt row of a message still being retried.
  const pending = r.messageStatus === 'pending' && r.messageAttempts === r.attempt;
  return {
    id: Number(r.id),
    webhookId: r.eventId,
    kind: r.kind,
    channel: r.channel,
    leadId: r.leadId,
    attempt: r.attempt,
    status: r.status,
    target: r.target,
    responseCode: r.responseCode,
    responseBody: r.responseBody,
    error: r.error,
    warning: r.warning,
    durationMs: r.durationMs,
    createdAt: iso(r.createdAt)!,
    nextAttemptAt: pending ? iso(r.nextAttemptAt) : null,
    replayable: isReplayable(r.status, r.messageStatus as 'pending' | 'delivered' | 'dead'),
  };
}

function deliveriesQuery(db: Db) {
  return db('notificationDeliveries as d')
    .join('notificationMessages as m', 'm.id', 'd.messageId')
    .select('d.*', 'm.status as messageStatus', 'm.attempts as messageAttempts', 'm.nextAttemptAt');
}

/** The delivery log: every attempt, newest first. */
export async function listDeliveries({ db }: { db: Db }, agentId: number | null, q: DeliveriesQuery): Promise<DeliveryPage> {
  const where = (b: ReturnType<Db>) => {
    if (agentId !== null) b.where('d.agentId', agentId);
    if (q.channel) b.where('d.channel', q.channel);
    if (q.status) b.where('d.status', q.status);
    return b;
  };
  const [rows, [{ count }]] = await Promise.all([
    where(deliveriesQuery(db)).orderBy('d.id', 'desc').limit(q.pageSize).offset((q.page - 1) * q.pageSize) as Promise<DeliveryRow[]>,
    where(db('notificationDeliveries as d')).count({ count: '*' }) as Promise<{ count: string }[]>,
  ]);
  return { items: rows.map(presentDelivery), page: q.page, pageSize: q.pageSize, total: Number(count) };
}

/**
 * Replays per agent, counted in PostgreSQL (every process shares them): the agent's dashboard (and an admin viewing
 * as the agent) 10 a minute; operators (ops CLI) a budget of their own, 60 a minute per agent, for sending an
 * agent's dead deliveries again after an outage. Each replay is a signed POST to a URL the agent chose.
 */
export const REPLAY_LIMIT = { name: 'notifications.replay', points: DELIVERY_REPLAYS_PER_MINUTE, durationSeconds: 60 } as const;
export const OPERATOR_REPLAY_LIMIT = { name: 'notifications.replay-operator', points: 60, durationSeconds: 60 } as const;

/**
 * Send a delivery again, now, with the current settings (URL, secret) and the same body and webhook-id.
 * One extra attempt: if it fails too, the delivery stays dead. Only a dead or failed attempt of a delivery that
 * is dead (`isReplayable`): 409 while retries are pending, and for one that succeeded, was delivered later or
 * answered 410 Gone. Limited per agent (REPLAY_LIMIT; OPERATOR_REPLAY_LIMIT for `agentId` null, an operator).
 */
export async function replayDelivery(deps: { db: Db; queue: Pick<Queue, 'send'> }, agentId: number | null, deliveryId: number): Promise<DeliveryReplay> {
  return deps.db.transaction(async (trx) => {
    const attempt = await trx('notificationDeliveries').where({ id: deliveryId }).modify((b) => (agentId !== null ? b.where({ agentId }) : b)).first();
    if (!attempt) throw deliveryNotFound();
    const message = await trx('notificationMessages').where({ id: attempt.messageId }).forUpdate().first();
    if (message.status === 'pending') throw deliveryStillRetrying(iso(message.nextAttemptAt));
    if (!isReplayable(attempt.status, message.status)) throw deliveryNotReplayable(attempt.status, message.status);
    await consumeRateLimit(deps.db, agentId === null ? OPERATOR_REPLAY_LIMIT : REPLAY_LIMIT, `agent:${attempt.agentId}`);
    const next = message.attempts + 1;
    await trx('notificationMessages')
      .where({ id: message.id })
      .update({ status: 'pending', lastAttemptAllowed: next, nextAttemptAt: trx.fn.now(), leaseUntil: null, updatedAt: trx.fn.now() });
    await deps.queue.send(deliverJob, { messageId: Number(message.id), attempt: next }, { trx });
    return { message: `Delivery ${message.webhookId} queued again (attempt ${next})`, webhookId: message.webhookId, attempt: next };
  });
}

const TEST_CHANNEL = { custom: 'webhook', zapier: 'zapier', crm: 'crm' } as const;
const TEST_WHAT = { custom: 'webhook URL', zapier: 'Zapier webhook URL', crm: 'CRM' } as const;

/** The sample lead a test send carries (marked lead.test, so receivers can tell it apart). */
export function sampleLead(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, agentId: number, now: Date): LeadDelivery {
  return {
    agentId,
    lead: {
      id: 0,
      name: 'Test Buyer',
      email: 'test.buyer@example.com',
      phone: '(555) 010-0000',
      message: 'This is a test lead from Listing Ads. If you can read this, lead delivery works.',
      source: 'property_page',
      interestedInTour: true,
      interestedInSimilar: false,
      createdAt: now.toISOString(),
    },
    listing: {
      id: 0,
      mlsId: 'TEST-0001',
      address: '123 Sample Street',
      city: 'Tampa',
      state: 'FL',
      postalCode: '33602',
      price: '450000',
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1850,
      imageUrl: null,
      url: `${publicOrigin(config)}/listing/TEST-0001`,
    },
  };
}

/**
 * POST /test-webhook: a `lead.test` through the very path real leads take (message, channel, signing,
 * the safe client, the attempt log), made synchronously within the delivery timeout and not retried.
 */
export async function sendTestDelivery(deps: DeliveryDeps, agentId: number, type: WebhookType): Promise<{ message: string; statusCode: number; deliveryId: number }> {
  const settings = await loadSettings(deps.db, agentId);
  const configured = type === 'custom' ? !!settings.webhookUrl : type === 'zapier' ? !!settings.zapierWebhookUrl : !!settings.crmType;
  if (!configured) throw nothingToTest(TEST_WHAT[type]);
  const now = deps.now?.() ?? new Date();
  const message = await deps.db.transaction((trx) =>
    createMessage(
      deps.queue,
      trx,
      { agentId, kind: 'lead.test', channel: TEST_CHANNEL[type], payload: { type: 'lead.test', timestamp: now.toISOString(), data: sampleLead(deps.config, agentId, now) }, lastAttemptAllowed: 1 },
      { enqueue: false },
    ),
  );
  const result = await attemptDelivery(deps, message!.id, 1);
  const o = result.outcome!;
  // One answer for every failure (an HTTP error, a refused port, a name that does not resolve, a timeout):
  // what happened is in the delivery log, for the agent, and the answer is no probe of a network.
  if (!o.ok) throw testFailed(type, result.deliveryId!);
  const receiver = `the receiver answered ${statusText(o.statusCode ?? 200)}`;
  return {
    message: `Test ${type} notification delivered: ${receiver}${o.warning ? `. ${o.warning}` : ''}`,
    statusCode: o.statusCode ?? 200,
    deliveryId: result.deliveryId!,
  };
}

import type { Knex } from 'knex';
import type { QueryConfig, QueryResultRow } from 'pg';
import type { DeliveryChannel, LeadDelivery, LeadDeliveryListing } from '@app/contracts';
import type { ReadCaches } from '../../../platform/cache/read-cache';
import type { Config } from '../../../platform/config';
import type { Queue } from '../../../platform/jobs/queue';
import { absoluteUrl, publicOrigin } from '../emails/templates';
import { DELIVERY_MAX_ATTEMPTS, listingPagePath } from '@app/contracts';
import { sqlOf, type Db } from '../../../platform/db/knex';
import type { SqlExecutor } from '../../../platform/db/pipelined-connection';
import type { TraceCarrier } from '../../../platform/telemetry/trace-context';
import { activeChannels, loadSettings, type SettingsRow } from '../settings/settings.service';
import { hookIdsOf } from '../hooks/hooks.service';
import { smsActive } from '../sms/sms.service';
import { deliverJob, newWebhookId } from './deliver-message';

/** What the leads module hands over when it stores a lead: the lead and its listing as they are now. */
export interface LeadForDelivery {
  id: number;
  agentId: number;
  listingId: number;
  name: string;
  email: string;
  phone: string | null;
  message: string | null;
  source: string;
  interestedInTour: boolean;
  interestedInSimilar: boolean;
  createdAt: Date | string;
  /** The trace context of the request that sent the lead (tracing on): its delivery jobs continue it. */
  trace?: TraceCarrier;
  /** The listing as the listings module presents it for a delivery (its `findPublicListingRef`); the page URL is added here. */
  listing: Omit<LeadDeliveryListing, 'id' | 'url'>;
}

/** Standard Webhooks bodies stay well under 20 KB; a long message is cut to fit. */
export const MAX_BODY_BYTES = 20 * 1024;

export function toLeadDelivery(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, lead: LeadForDelivery): LeadDelivery {
  const l = lead.listing;
  const snapshot: LeadDelivery = {
    agentId: lead.agentId,
    lead: {
      id: lead.id,
      name: lead.name,
      email: lead.email,
      phone: lead.phone ?? null,
      message: lead.message ?? '',
      source: lead.source,
      interestedInTour: lead.interestedInTour,
      interestedInSimilar: lead.interestedInSimilar,
      createdAt: new Date(lead.createdAt).toISOString(),
    },
    listing: {
      id: lead.listingId,
      ...l,
      // Every URL absolute (receivers are outside systems): our own photo paths on PUBLIC_URL, and the page a buyer sees.
      imageUrl: absoluteUrl(config, l.imageUrl),
      url: `${publicOrigin(config)}${listingPagePath(l.mlsId)}`,
    },
  };
  // The envelope ({type, timestamp, data}) adds under 100 bytes; keep a margin for it.
  const overflow = Buffer.byteLength(JSON.stringify(snapshot)) - (MAX_BODY_BYTES - 512);
  if (overflow > 0) {
    const msg = snapshot.lead.message;
    snapshot.lead.message = `${Buffer.from(msg).subarray(0, Math.max(0, Buffer.byteLength(msg) - overflow - 3)).toString('utf8').replace(/\uFFFD+$/, '')}…`;
  }
  return snapshot;
}

/**
 * What storing some leads hands over, prepared before their transaction: the agents' settings (from the read
 * cache: the agent's choices at the time of the lead; one saved a few seconds ago in another process,
 * READ_CACHE_MAX_TTL_MS at most and at once in this one, is harmless to miss; each attempt reads the
 * channel's URL and secret again when it runs). Inside the transaction, `reserve` and `send` write it in two
 * steps, so that a pipelined transaction (platform/db) sends them with the leads' own statements:
 *  1. `reserve`, beside the leads' insert: ids for the messages the leads may make (one per channel on);
 *  2. `send`, once the leads have ids: each lead's snapshot (retries and the daily digest send exactly this),
 *     its messages with the reserved ids, and their first attempts as jobs. Each is one statement for all
 *     the leads. A rolled-back lead is never delivered; a lead handed over twice is delivered once (its
 *     snapshot and messages exist already and are kept; the jobs made for the second find no message of
 *     theirs and do nothing).
 */
export interface LeadHandover {
  /** Sends the statement that reserves the message ids of leads for these agents (one per channel on); resolves with them. */
  reserve(sql: SqlExecutor, agentIds: readonly number[]): Promise<number[]>;
  /**
   * Sends the hand-over of `leads` (stored in this transaction, their messages' ids from `reserve`).
   * Resolves once every statement is sent (the caller may then send COMMIT) with `done`, their outcome.
   */
  send(sql: SqlExecutor, leads: readonly LeadForDelivery[], messageIds: readonly number[]): Promise<{ done: Promise<void> }>;
}

const RESERVE_MESSAGE_IDS = `select nextval(pg_get_serial_sequence('notification_messages', 'id'))::int8 as id from generate_series(1, $1::int)`;
const INSERT_SNAPSHOTS = `insert into notification_leads (lead_id, agent_id, snapshot, digest_due)
  select lead_id, agent_id, snapshot, digest_due from json_populate_recordset(null::notification_leads, $1::json)
  on conflict (lead_id) do nothing`;
const INSERT_MESSAGES = `insert into notification_messages (id, agent_id, lead_id, kind, channel, hook_id, webhook_id, payload, last_attempt_allowed, next_attempt_at)
  select id, agent_id, lead_id, kind, channel, hook_id, webhook_id, payload, last_attempt_allowed, now() from json_populate_recordset(null::notification_messages, $1::json)
  on conflict do nothing`;

/** Where an agent's leads go: the settings' channels, each REST hook subscribed to lead.created, and text alerts. */
interface DeliveryTargets {
  settings: SettingsRow;
  hookIds: number[];
  sms: boolean;
}

/** One message per channel on, one per subscribed hook, and one for text alerts (the sms channel groups them). */
function messageTargets(t: DeliveryTargets): { channel: DeliveryChannel; hookId: number | null }[] {
  return [
    ...activeChannels(t.settings).map((channel) => ({ channel, hookId: null })),
    ...t.hookIds.map((hookId) => ({ channel: 'hook' as const, hookId })),
    ...(t.sms ? [{ channel: 'sms' as const, hookId: null }] : []),
  ];
}

async function loadTargets(db: Db | Knex.Transaction, agentId: number): Promise<DeliveryTargets> {
  return { settings: await loadSettings(db, agentId), hookIds: await hookIdsOf(db, agentId, 'lead.created'), sms: await smsActive(db, agentId) };
}

export async function prepareLeadHandover(
  deps: { queue: Pick<Queue, 'sendMany'>; config: Pick<Config, 'PUBLIC_URL' | 'PORT'>; caches: ReadCaches; db: Db | Knex.Transaction },
  agentIds: Iterable<number>,
): Promise<LeadHandover> {
  const targetsCache = deps.caches.named<DeliveryTargets>('notification-targets', ['notification_settings', 'notification_hooks', 'notification_sms']);
  const targets = new Map<number, DeliveryTargets>();
  for (const agentId of new Set(agentIds)) {
    targets.set(agentId, await targetsCache.get(String(agentId), () => loadTargets(deps.db, agentId)));
  }
  const targetsOf = (agentId: number) => {
    const t = targets.get(agentId);
    if (!t) throw new Error(`lead hand-over: agent ${agentId} was not prepared`);
    return t;
  };
  const settingsOf = (agentId: number) => targetsOf(agentId).settings;
  return {
    async reserve(sql, agentIds) {
      const count = agentIds.reduce((n, agentId) => n + messageTargets(targetsOf(agentId)).length, 0);
      if (count === 0) return [];
      const { rows } = await sql.query<{ id: string }>({ name: 'notifications.reserve-message-ids', text: RESERVE_MESSAGE_IDS, values: [count] });
      return rows.map((r) => Number(r.id));
    },
    async send(sql, leads, messageIds) {
      if (leads.length === 0) return { done: Promise.resolve() };
      const snapshots = leads.map((lead) => toLeadDelivery(deps.config, lead));
      let reserved = 0;
      const traces: (TraceCarrier | undefined)[] = [];
      const messages = snapshots.flatMap((snapshot, i) => {
        const payload = { type: 'lead.created', timestamp: snapshot.lead.createdAt, data: snapshot };
        return messageTargets(targetsOf(snapshot.agentId)).map(({ channel, hookId }) => {
          const id = messageIds[reserved++];
          if (id === undefined) throw new Error('lead hand-over: fewer message ids reserved than messages');
          traces.push(leads[i].trace);
          return { id, agent_id: snapshot.agentId, lead_id: snapshot.lead.id, kind: 'lead.created', channel, hook_id: hookId, webhook_id: newWebhookId(), payload, last_attempt_allowed: DELIVERY_MAX_ATTEMPTS };
        });
      });
      const rows = snapshots.map((snapshot) => {
        const s = settingsOf(snapshot.agentId);
        return { lead_id: snapshot.lead.id, agent_id: snapshot.agentId, snapshot, digest_due: s.emailNotifications && !s.instantNotifications };
      });
      const statements: Promise<unknown>[] = [sql.query({ name: 'notifications.insert-lead-snapshots', text: INSERT_SNAPSHOTS, values: [JSON.stringify(rows)] })];
      if (messages.length > 0) {
        statements.push(sql.query({ name: 'notifications.insert-lead-messages', text: INSERT_MESSAGES, values: [JSON.stringify(messages)] }));
        // pg-boss makes its statement after a step of its own: the caller may send COMMIT once it is sent.
        let jobsSent!: () => void;
        const sent = new Promise<void>((resolve) => (jobsSent = resolve));
        const jobs = deps.queue.sendMany(deliverJob, messages.map((m) => ({ messageId: m.id, attempt: 1 })), {
          traces,
          sql: {
            query<R extends QueryResultRow>(config: QueryConfig) {
              const result = sql.query<R>(config);
              jobsSent();
              return result;
            },
          },
        });
        statements.push(jobs);
        await Promise.race([sent, jobs]);
      }
      return { done: Promise.all(statements).then(() => undefined) };
    },
  };
}

/**
 * The whole hand-over of leads stored in a knex transaction (`trx`), one step after another: the settings,
 * the message ids, then the snapshots, messages and jobs (see LeadHandover). The leads module stores leads
 * in a pipelined transaction and uses the steps directly.
 */
export async function enqueueLeadDeliveries(
  deps: { queue: Pick<Queue, 'sendMany'>; config: Pick<Config, 'PUBLIC_URL' | 'PORT'>; caches: ReadCaches },
  trx: Knex.Transaction,
  leads: LeadForDelivery | readonly LeadForDelivery[],
): Promise<void> {
  const all = Array.isArray(leads) ? (leads as readonly LeadForDelivery[]) : [leads as LeadForDelivery];
  if (all.length === 0) return;
  // Settings are read on the transaction's own connection: taking a second one while this one is held could
  // starve the pool under load.
  const handover = await prepareLeadHandover({ ...deps, db: trx }, all.map((l) => l.agentId));
  const sql = await sqlOf(trx);
  const ids = await handover.reserve(sql, all.map((l) => l.agentId));
  const { done } = await handover.send(sql, all, ids);
  await done;
}

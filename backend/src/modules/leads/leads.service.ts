import { LEAD_SOURCE_DEFAULT, type AgentLeadsPage, type AgentLeadsQuery, type LeadSubmission } from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import type { ReadCaches } from '../../platform/cache/read-cache';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import type { Knex } from 'knex';
import { AppError } from '../../platform/errors';
import { GroupCommit } from '../../platform/db/group-commit';
import { CachedJson } from '../../platform/http/compression';
import { holdOpen, pipelinedTransaction } from '../../platform/db/knex';
import { consumeRateLimit, refundRateLimit } from '../../platform/http/rate-limit';
import { findListingSummaries, findPublicListingRef, type PublicListingRef } from '../listings';
import { assertAgentAccess } from '../agents';
import { prepareLeadHandover, type LeadForDelivery } from '../notifications';
import { presentLead } from './leads.presenter';
import { Lead } from './lead.model';
import type { LeadFormTokens } from './form-token';
import { formTokenInvalid, honeypotFilled, listingNotFound, sentTooFast } from './leads.errors';

/** Per client address: a buyer writes to a few agents, not dozens. */
export const LEAD_IP_LIMIT = { name: 'lead-ip', points: 10, durationSeconds: 60 * 60 } as const;
/** Per listing, whoever sends: a flood against one agent stops here even from many addresses. */
export const LEAD_LISTING_LIMIT = { name: 'lead-listing', points: 100, durationSeconds: 60 * 60 } as const;

export interface LeadsDeps {
  db: Db;
  queue: Queue;
  /** Links in the delivered lead (the listing page) are built from PUBLIC_URL. */
  config: Config;
  tokens: LeadFormTokens;
  /** The listing a lead goes to and the agent's notification settings come from the read cache. */
  caches: ReadCaches;
  /** Stores leads, grouping the ones that arrive together into one transaction (`leadWriter`). */
  writer: GroupCommit<NewLead, StoredLead>;
}

export interface SubmitLead {
  mlsId: string;
  input: LeadSubmission;
  ip: string;
  userAgent: string | null;
  now?: number;
}

/** A lead that passed the guards, on its way to the table. */
export interface NewLead {
  ref: PublicListingRef;
  input: LeadSubmission;
  userAgent: string | null;
  now: number;
}

/** `created: false`: this form was stored before (a retry); `id` is its lead. */
export interface StoredLead {
  id: number;
  created: boolean;
}

const keyOf = (listingId: number, idempotencyKey: string) => `${listingId}|${idempotencyKey}`;

/** The ids of forms already stored, by `keyOf(listingId, idempotencyKey)`. */
async function storedIds(db: Knex, forms: { listingId: number; idempotencyKey: string }[]): Promise<Map<string, number>> {
  const found: { id: string | number; listingId: number; idempotencyKey: string }[] = await db('leads')
    .select('id', 'listingId', 'idempotencyKey')
    .whereIn(['listingId', 'idempotencyKey'], forms.map((f) => [f.listingId, f.idempotencyKey]));
  return new Map(found.map((r) => [keyOf(r.listingId, r.idempotencyKey), Number(r.id)]));
}

/**
 * Inserts the leads of a batch (rows in key order, snake_case columns as the table has them); a form already
 * stored (same listing and idempotency key: a retry, or a second send in the same batch) inserts nothing.
 */
const INSERT_LEADS = `insert into leads (listing_id, agent_id, name, email, phone, message, source, interested_in_tour, interested_in_similar,
                    idempotency_key, consent_version, consent_at, page_url, user_agent)
  select listing_id, agent_id, name, email, phone, message, source, interested_in_tour, interested_in_similar,
         idempotency_key, consent_version, consent_at, page_url, user_agent
    from json_populate_recordset(null::leads, $1::json) with ordinality as r
   order by r.ordinality
  on conflict (listing_id, idempotency_key) do nothing
  returning id, listing_id as "listingId", idempotency_key as "idempotencyKey", created_at as "createdAt"`;

/**
 * The leads that arrived together, in one pipelined transaction (platform/db `pipelinedTransaction`) of two
 * round trips: BEGIN, the leads' insert and the reservation of their messages' ids go together; then the
 * notifications door's statements (snapshots, messages, first attempts) and COMMIT. A form already stored
 * (same listing and idempotency key, before or in the same batch) answers its lead's id.
 */
async function storeLeads(deps: Pick<LeadsDeps, 'db' | 'queue' | 'config' | 'caches'>, batch: NewLead[]): Promise<StoredLead[]> {
  const forms = batch.map(({ ref, input, userAgent, now }) => {
    // What the agent is told (the delivered snapshot) …
    const lead = {
      listingId: ref.listingId,
      agentId: ref.agentId,
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      message: input.message,
      source: LEAD_SOURCE_DEFAULT,
      interestedInTour: input.interestedInTour,
      interestedInSimilar: input.interestedInSimilar,
    };
    // … and the row, with what is kept besides: the form's key and the consent record.
    const row = {
      listing_id: lead.listingId,
      agent_id: lead.agentId,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      message: lead.message,
      source: lead.source,
      interested_in_tour: lead.interestedInTour,
      interested_in_similar: lead.interestedInSimilar,
      idempotency_key: input.idempotencyKey,
      consent_version: input.consentVersion,
      consent_at: input.consentVersion ? new Date(now).toISOString() : null,
      page_url: input.pageUrl,
      user_agent: userAgent ? userAgent.slice(0, 1000) : null,
    };
    return { key: keyOf(ref.listingId, input.idempotencyKey), lead, row, listing: ref.listing, idempotencyKey: input.idempotencyKey };
  });
  // In key order: two batches that share two forms lock them in the same order, so they cannot deadlock.
  const ordered = forms.map((f) => f.row).sort((a, b) => a.listing_id - b.listing_id || (a.idempotency_key < b.idempotency_key ? -1 : a.idempotency_key > b.idempotency_key ? 1 : 0));
  const handover = await prepareLeadHandover({ queue: deps.queue, config: deps.config, caches: deps.caches, db: deps.db }, forms.map((f) => f.lead.agentId));
  const results = await pipelinedTransaction(deps.db, async (tx) => {
    // A form sent twice (racing sends, or a retry): the unique key lets one insert; the other reads its id.
    const [inserted, messageIds] = await Promise.all([
      tx.query<{ id: number; listingId: number; idempotencyKey: string; createdAt: Date }>({ name: 'leads.insert-batch', text: INSERT_LEADS, values: [JSON.stringify(ordered)] }),
      handover.reserve(tx, forms.map((f) => f.lead.agentId)),
    ]);
    const made = new Map(inserted.rows.map((r) => [keyOf(r.listingId, r.idempotencyKey), r]));
    // The first form with a new key made its lead; a second with the same key in this batch, or one stored
    // before (not inserted now), is a retry.
    const claimed = new Set<string>();
    const deliveries: LeadForDelivery[] = [];
    const out = forms.map(({ key, lead, listing }) => {
      const r = made.get(key);
      if (!r || claimed.has(key)) return { key, id: r ? Number(r.id) : undefined, created: false };
      claimed.add(key);
      deliveries.push({ ...lead, id: Number(r.id), createdAt: r.createdAt, listing });
      return { key, id: Number(r.id), created: true };
    });
    const { done } = await handover.send(tx, deliveries, messageIds);
    await Promise.all([done, tx.commit()]);
    return out;
  });
  // Forms stored before this batch: their leads' ids (committed: the insert waited for them to be).
  const retried = forms.filter((_, i) => results[i].id === undefined).map((f) => ({ listingId: f.lead.listingId, idempotencyKey: f.idempotencyKey }));
  const earlier = retried.length ? await storedIds(deps.db, retried) : new Map<string, number>();
  return results.map(({ key, id, created }) => ({ id: id ?? earlier.get(key)!, created }));
}

/** This app's lead writer: leads arriving together share a transaction (platform/db/group-commit.ts). */
export function leadWriter(deps: Pick<LeadsDeps, 'db' | 'queue' | 'config' | 'caches'>): GroupCommit<NewLead, StoredLead> {
  return new GroupCommit((batch) => storeLeads(deps, batch), { maxBatch: 50, maxInFlight: 2 });
}

/**
 * A lead from a public listing page (POST /api/listings/{mlsId}/leads). Guards in order: honeypot, the
 * signed time trap, the listing, then the rate limits (per address and per listing). The lead, its consent
 * record and its delivery jobs are written in one transaction, shared with the leads sent at the same moment.
 * Returns the lead's id. The same form sent again (same idempotency key) stores nothing and answers the first
 * send's id: its points are given back, and when the limits are spent it still gets its id, not a 429. The
 * listing (and, in notifications, the agent's settings) come from the read cache, so a lead for a listing
 * seen a moment ago reads neither.
 */
export async function submitLead(deps: LeadsDeps, cmd: SubmitLead): Promise<StoredLead> {
  const { input } = cmd;
  const now = cmd.now ?? Date.now();
  if (input.website && input.website.trim() !== '') throw honeypotFilled();
  const token = deps.tokens.check(input.formToken, cmd.mlsId, now);
  if (token.result === 'invalid') throw formTokenInvalid();
  if (token.result === 'too_fast') throw sentTooFast(Math.ceil(token.waitMs / 1000));

  const ref = await findPublicListingRef({ caches: deps.caches }, cmd.mlsId);
  if (!ref) throw listingNotFound();

  const limits = [
    { limit: LEAD_IP_LIMIT, key: cmd.ip },
    { limit: LEAD_LISTING_LIMIT, key: String(ref.listingId) },
  ];
  // Both counts in one round trip's time; either one spent refuses the lead (429 with Retry-After)…
  const spent = await Promise.all(limits.map(({ limit, key }) => consumeRateLimit(deps.db, limit, key).then(() => null, (err: unknown) => err)));
  const refused = spent.find((err) => err !== null);
  if (refused) {
    // …unless this form was stored before: a retry gets its lead, and nothing is counted for it.
    const key = keyOf(ref.listingId, input.idempotencyKey);
    const earlier = err429(refused) ? (await storedIds(deps.db, [{ listingId: ref.listingId, idempotencyKey: input.idempotencyKey }])).get(key) : undefined;
    await Promise.all(limits.map(({ limit, key }, i) => (spent[i] === null ? refundRateLimit(deps.db, limit, key) : undefined)));
    if (earlier !== undefined) return { id: earlier, created: false };
    throw refused;
  }

  // Once handed to the writer, the lead is written even if the process is stopping: the database stays open for it.
  const stored = await holdOpen(deps.db, deps.writer.submit({ ref, input, userAgent: cmd.userAgent, now }));
  // A retry counts once: the form's first send was counted.
  if (!stored.created) await Promise.all(limits.map(({ limit, key }) => refundRateLimit(deps.db, limit, key)));
  return stored;
}

const err429 = (err: unknown) => err instanceof AppError && err.status === 429;

/**
 * One page of an agent's leads as the JSON sent (GET /api/agents/{id}/leads): newest first, each with its
 * listing's address, price and mlsId, plus how many there are in all. Keyset pagination on (created_at,
 * id); the cursor carries the time in microseconds, so leads made in the same millisecond are neither
 * skipped nor repeated. The access rule comes from the cached agent facts, and the page is held a few
 * seconds in the read cache (emptied at once by a lead this process stores).
 */
export async function agentLeadsPageJson({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number, { limit, cursor }: AgentLeadsQuery): Promise<CachedJson> {
  await assertAgentAccess({ caches }, actor, agentId);
  return caches.named<CachedJson>('agent-leads', ['leads', 'listings']).get(`${agentId}|${limit}|${cursor ?? ''}`, async () => {
    const page = Lead.query()
      .where('agentId', agentId)
      .select('*', Lead.raw(`(extract(epoch from created_at) * 1000000)::bigint::text as created_us`))
      .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(limit + 1);
    if (cursor) {
      const [us, id] = cursor.split('.');
      page.whereRaw(`(created_at, id) < ('epoch'::timestamptz + ?::bigint * interval '1 microsecond', ?::bigint)`, [us, id]);
    }
    const [rows, total] = await Promise.all([
      page as unknown as Promise<(Lead & { createdUs: string })[]>,
      Lead.query().where('agentId', agentId).resultSize(),
    ]);
    const more = rows.length > limit;
    const leads = more ? rows.slice(0, limit) : rows;
    const listings = await findListingSummaries(leads.map((l) => l.listingId));
    const last = leads[leads.length - 1];
    return new CachedJson(
      JSON.stringify({
        leads: leads.map((l) => presentLead(l, listings.get(l.listingId))),
        total,
        nextCursor: more ? `${last.createdUs}.${last.id}` : null,
      } satisfies AgentLeadsPage),
    );
  });
}

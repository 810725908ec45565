import { LEAD_SOURCE_DEFAULT, type AgentLeadsPage, type AgentLeadsQuery, type LeadChallenge, type LeadChallengeAnswer, type LeadChallengeRequest, type LeadHoldReason, type LeadSubmission } from '@app/contracts';
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
import { COUNT_ONLY_POINTS, consumeRateLimit, countInWindow, refundRateLimit } from '../../platform/http/rate-limit';
import { currentTraceCarrier, type TraceCarrier } from '../../platform/telemetry/trace-context';
import { findListingSummaries, findPublicListingRef, type PublicListingRef } from '../listings';
import { assertAgentAccess } from '../agents';
import { prepareLeadHandover, type LeadForDelivery } from '../notifications';
import { presentLead } from './leads.presenter';
import { Lead } from './lead.model';
import type { LeadFormTokens } from './form-token';
import { LEAD_PROOF_TTL_MS, type LeadProofs } from './lead-proof';
import { contentHashOf, holdReasonsOf, isGuarded, messageKeyOf, networkOf, scoreLead } from './lead-guard';
import { releaseHeldLead } from './lead-review';
import { formTokenInvalid, honeypotFilled, listingNotFound, sentTooFast } from './leads.errors';

/** Per client address, refused past it (429): a buyer writes to a few agents, not dozens. Refuses only that address. */
export const LEAD_IP_LIMIT = { name: 'lead-ip', points: 10, durationSeconds: 60 * 60 } as const;
/** Leads per network (/24, /64) in the last hour: counted, never refused (many buyers can share one network). */
export const LEAD_NETWORK_COUNT = { name: 'lead-network', durationSeconds: 60 * 60 } as const;
/** While a listing is guarded: how often its leads repeat a sender's email, or a message (`messageKeyOf`). */
export const LEAD_EMAIL_REPEATS = { name: 'lead-listing-email', durationSeconds: 60 * 60 } as const;
export const LEAD_MESSAGE_REPEATS = { name: 'lead-listing-message', durationSeconds: 60 * 60 } as const;
/** A challenge's nonce, spent by its first proof: the second use is refused. */
export const LEAD_PROOF_SPENT = { name: 'lead-proof', points: 1, durationSeconds: LEAD_PROOF_TTL_MS / 1000 + 60 } as const;

export interface LeadsDeps {
  db: Db;
  queue: Queue;
  /** Links in the delivered lead (the listing page) are built from PUBLIC_URL. */
  config: Config;
  tokens: LeadFormTokens;
  /** The proof-of-work challenges asked of a guarded listing's page. */
  proofs: LeadProofs;
  /** The listing a lead goes to and the agent's notification settings come from the read cache. */
  caches: ReadCaches;
  /** Stores leads, grouping the ones that arrive together into one transaction (`leadWriter`). */
  writer: LeadWriter;
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
  /** Held for the agent's review (and why) instead of handed to delivery; null: delivered. */
  hold: LeadHoldReason[] | null;
  /** The request's trace context (tracing on): its delivery jobs continue that trace, whatever batch it joins. */
  trace?: TraceCarrier;
}

/**
 * `created: false`: this form was stored before (`retry`: the same idempotency key) or repeats a stored lead
 * exactly (same sender and message); `id` is that lead. `held`: why it waits for review, or null.
 */
export interface StoredLead {
  id: number;
  created: boolean;
  retry: boolean;
  held: LeadHoldReason[] | null;
}

/** The answer to a lead: its id, and a challenge when its listing is guarded and a proof of work may still release it. */
export interface SubmittedLead extends StoredLead {
  challenge?: LeadChallenge;
}

const keyOf = (listingId: number, idempotencyKey: string) => `${listingId}|${idempotencyKey}`;
const hex = (b: Buffer) => b.toString('hex');

interface EarlierLead {
  id: number;
  listingId: number;
  idempotencyKey: string | null;
  contentHash: string | null;
  status: 'received' | 'held' | 'discarded';
  holdReasons: LeadHoldReason[] | null;
}

/** The leads stored before for these forms: the same form (listing and idempotency key) or the same content. */
const EARLIER_LEADS = `select l.id, l.listing_id as "listingId", l.idempotency_key as "idempotencyKey", encode(l.content_hash, 'hex') as "contentHash",
         l.status, l.hold_reasons as "holdReasons"
    from json_to_recordset(?::json) as f(listing_id int, idempotency_key text, content_hash text)
    join leads l on l.listing_id = f.listing_id and (l.idempotency_key = f.idempotency_key or l.content_hash = decode(f.content_hash, 'hex'))`;

/** For each form, the lead stored before it: the same form first, else the same content; undefined if none. */
async function earlierLeads(db: Knex, forms: { listingId: number; idempotencyKey: string; contentHash: string }[]): Promise<(EarlierLead | undefined)[]> {
  const { rows } = (await db.raw(EARLIER_LEADS, [
    JSON.stringify(forms.map((f) => ({ listing_id: f.listingId, idempotency_key: f.idempotencyKey, content_hash: f.contentHash }))),
  ])) as { rows: EarlierLead[] };
  return forms.map(
    (f) =>
      rows.find((r) => r.listingId === f.listingId && r.idempotencyKey === f.idempotencyKey) ??
      rows.find((r) => r.listingId === f.listingId && r.contentHash === f.contentHash),
  );
}

/**
 * Inserts the leads of a batch (rows in key order, snake_case columns as the table has them). A lead already
 * stored inserts nothing: the same form (listing and idempotency key: a retry, or a second send in the same
 * batch) or the same content (listing and content hash: an exact repeat).
 */
const INSERT_LEADS = `insert into leads (listing_id, agent_id, name, email, phone, message, source, interested_in_tour, interested_in_similar,
                    idempotency_key, consent_version, consent_at, page_url, user_agent, status, hold_reasons, content_hash)
  select listing_id, agent_id, name, email, phone, message, source, interested_in_tour, interested_in_similar,
         idempotency_key, consent_version, consent_at, page_url, user_agent, status, hold_reasons, content_hash
    from json_populate_recordset(null::leads, $1::json) with ordinality as r
   order by r.ordinality
  on conflict do nothing
  returning id, listing_id as "listingId", idempotency_key as "idempotencyKey", created_at as "createdAt"`;

/**
 * The leads that arrived together, in one pipelined transaction (platform/db `pipelinedTransaction`) of two
 * round trips: BEGIN, the leads' insert and the reservation of their messages' ids go together; then the
 * notifications door's statements (snapshots, messages, first attempts) and COMMIT. Held leads are stored and
 * handed to nobody. A form or content already stored (before or in the same batch) answers its lead's id.
 */
async function storeLeads(deps: Pick<LeadsDeps, 'db' | 'queue' | 'config' | 'caches'>, batch: NewLead[], lane: 'delivered' | 'held'): Promise<StoredLead[]> {
  const forms = batch.map(({ ref, input, userAgent, now, hold, trace }) => {
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
    const contentHash = hex(contentHashOf(input));
    // … and the row, with what is kept besides: the form's key, the consent record, the review state.
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
      status: hold ? 'held' : 'received',
      hold_reasons: hold,
      content_hash: `\\x${contentHash}`,
    };
    return { key: keyOf(ref.listingId, input.idempotencyKey), lead, row, hold, listing: ref.listing, idempotencyKey: input.idempotencyKey, contentHash, trace };
  });
  // In key order: two batches that share two forms lock them in the same order, so they cannot deadlock.
  const ordered = forms.map((f) => f.row).sort((a, b) => a.listing_id - b.listing_id || (a.idempotency_key < b.idempotency_key ? -1 : a.idempotency_key > b.idempotency_key ? 1 : 0));
  const delivered = forms.filter((f) => !f.hold);
  const handover = await prepareLeadHandover({ queue: deps.queue, config: deps.config, caches: deps.caches, db: deps.db }, delivered.map((f) => f.lead.agentId));
  const results = await pipelinedTransaction(deps.db, async (tx) => {
    // Held leads (suspected flood) do not wait for the WAL to reach the disk: see `leadWriter`.
    if (lane === 'held') void tx.query({ text: 'set local synchronous_commit = off' });
    // A form sent twice (racing sends, or a retry), or the same content twice: a unique key lets one insert.
    const [inserted, messageIds] = await Promise.all([
      tx.query<{ id: number; listingId: number; idempotencyKey: string; createdAt: Date }>({ name: 'leads.insert-batch', text: INSERT_LEADS, values: [JSON.stringify(ordered)] }),
      handover.reserve(tx, delivered.map((f) => f.lead.agentId)),
    ]);
    const made = new Map(inserted.rows.map((r) => [keyOf(r.listingId, r.idempotencyKey), r]));
    // The first form with a new key made its lead; a second with the same key in this batch, or one stored
    // before (not inserted now), is a retry or a repeat.
    const claimed = new Set<string>();
    const deliveries: LeadForDelivery[] = [];
    const out = forms.map(({ key, lead, listing, hold, trace }) => {
      const r = made.get(key);
      if (!r || claimed.has(key)) return { id: undefined as number | undefined, created: false };
      claimed.add(key);
      if (!hold) deliveries.push({ ...lead, id: Number(r.id), createdAt: r.createdAt, listing, trace });
      return { id: Number(r.id), created: true };
    });
    const { done } = await handover.send(tx, deliveries, messageIds);
    await Promise.all([done, tx.commit()]);
    return out;
  });
  // Forms that made no lead now: the lead stored before them (committed: the insert waited for it to be).
  const missing = forms.map((f, i) => (results[i].created ? null : f));
  const lookups = missing.filter((f) => f !== null);
  const found = lookups.length
    ? await earlierLeads(deps.db, lookups.map((f) => ({ listingId: f!.lead.listingId, idempotencyKey: f!.idempotencyKey, contentHash: f!.contentHash })))
    : [];
  let next = 0;
  return forms.map((f, i) => {
    if (results[i].created) return { id: results[i].id!, created: true, retry: false, held: f.hold };
    const earlier = found[next++];
    if (!earlier) throw new Error(`lead ${f.key} was neither stored nor found`);
    return { id: Number(earlier.id), created: false, retry: earlier.idempotencyKey === f.idempotencyKey, held: earlier.status === 'held' ? earlier.holdReasons : null };
  });
}

/** Stores a lead that passed the guards: `leadWriter`. */
export interface LeadWriter {
  submit(lead: NewLead): Promise<StoredLead>;
}

/**
 * This app's lead writer: leads arriving together share a transaction (platform/db/group-commit.ts), in two
 * lanes. Leads handed to delivery go together; leads held for review (a guarded listing's suspected flood) go
 * together in a lane of their own, so a flood's writes never queue a real buyer's lead behind them. A held
 * lead's transaction commits without waiting for the disk (`synchronous_commit = off`, for that transaction
 * only): a database crash may forget the last fraction of a second of held leads (a buyer among them sends
 * again, as the page does with its proof of work); a delivered lead and its delivery jobs are always durable
 * before the 201.
 */
export function leadWriter(deps: Pick<LeadsDeps, 'db' | 'queue' | 'config' | 'caches'>): LeadWriter {
  const delivered = new GroupCommit<NewLead, StoredLead>((batch) => storeLeads(deps, batch, 'delivered'), { maxBatch: 50, maxInFlight: 2 });
  const held = new GroupCommit<NewLead, StoredLead>((batch) => storeLeads(deps, batch, 'held'), { maxBatch: 50, maxInFlight: 2 });
  return { submit: (lead) => (lead.hold ? held : delivered).submit(lead) };
}

/** Spends a challenge's proof: true once for a valid one, false for a wrong, stale or already used one. */
async function spendProof(deps: Pick<LeadsDeps, 'db' | 'proofs'>, proof: LeadSubmission['proof'], mlsId: string, idempotencyKey: string, now: number): Promise<boolean> {
  if (!proof) return false;
  const check = deps.proofs.check(proof, mlsId, idempotencyKey, now);
  if (check.result !== 'ok') return false;
  return consumeRateLimit(deps.db, LEAD_PROOF_SPENT, check.nonce).then(
    () => true,
    (err: unknown) => {
      if (err instanceof AppError && err.status === 429) return false;
      throw err;
    },
  );
}

/** Held only for want of the page's proof of work: the proof is all it takes to deliver it. */
const heldForProofOnly = (held: LeadHoldReason[] | null) => !!held && held.length === 1 && held[0] === 'proof';

/**
 * The challenge for a form as it opens (POST /api/listings/{mlsId}/lead-challenge): while the listing is guarded,
 * the one its send would be answered with (bound to the listing and the form's idempotency key), so the page
 * solves it while the buyer types; null otherwise. It counts nothing and stores nothing (the nonce is spent by
 * the lead that carries the proof); a forged or expired form token is refused as the lead would be.
 */
export async function leadChallengeFor(deps: Pick<LeadsDeps, 'db' | 'caches' | 'tokens' | 'proofs'>, mlsId: string, input: LeadChallengeRequest, now: number = Date.now()): Promise<LeadChallengeAnswer> {
  if (deps.tokens.check(input.formToken, mlsId, now).result === 'invalid') throw formTokenInvalid();
  const ref = await findPublicListingRef({ caches: deps.caches }, mlsId);
  if (!ref) throw listingNotFound();
  return { challenge: (await isGuarded(deps.db, ref.listingId)) ? deps.proofs.issue(mlsId, input.idempotencyKey, now) : null };
}

/**
 * A lead from a public listing page (POST /api/listings/{mlsId}/leads). Guards in order: honeypot, the signed
 * time trap, the listing, then the counts: per address (10 an hour, refused past it: that address alone), per
 * network (/24, /64) and the listing's guard score, in one round trip's time. The listing's leads never refuse
 * everyone: past its threshold the listing is guarded, and a lead that looks like part of the flood (its address
 * or network over its count, a repeat of another lead, no proof of work) is stored as held for the agent's
 * review, not delivered; its answer carries a challenge, and the same form sent again with the proof is
 * delivered unless something else held it. An exact repeat (same sender and message) is answered with the
 * stored lead's id and delivered nothing. The same form sent again (same idempotency key) stores nothing and
 * answers the first send's id: its counts are given back, and when the address's limit is spent it still gets
 * its id, not a 429. The lead and its delivery jobs are written in one transaction, shared with the leads sent
 * at the same moment.
 */
export async function submitLead(deps: LeadsDeps, cmd: SubmitLead): Promise<SubmittedLead> {
  const { input } = cmd;
  const now = cmd.now ?? Date.now();
  if (input.website && input.website.trim() !== '') throw honeypotFilled();
  const token = deps.tokens.check(input.formToken, cmd.mlsId, now);
  if (token.result === 'invalid') throw formTokenInvalid();
  if (token.result === 'too_fast') throw sentTooFast(Math.ceil(token.waitMs / 1000));

  const ref = await findPublicListingRef({ caches: deps.caches }, cmd.mlsId);
  if (!ref) throw listingNotFound();

  if (input.proof) {
    // The same form again, with the proof of work its first send was asked for: that lead, delivered now if the
    // missing proof was all that held it. Counted once, at its first send.
    const [earlier] = await earlierLeads(deps.db, [{ listingId: ref.listingId, idempotencyKey: input.idempotencyKey, contentHash: hex(contentHashOf(input)) }]);
    if (earlier && earlier.idempotencyKey === input.idempotencyKey) {
      let held = earlier.status === 'held' ? earlier.holdReasons : null;
      if (heldForProofOnly(held) && (await spendProof(deps, input.proof, cmd.mlsId, input.idempotencyKey, now))) {
        await releaseHeldLead(deps, earlier.id, null, ref);
        held = null;
      }
      const stored = { id: Number(earlier.id), created: false, retry: true, held };
      // A wrong or stale proof: another challenge, so the page may try again.
      return heldForProofOnly(held) ? { ...stored, challenge: deps.proofs.issue(cmd.mlsId, input.idempotencyKey, now) } : stored;
    }
  }

  const network = networkOf(cmd.ip);
  // The counts in one round trip's time; the address's limit spent refuses the lead (429 with Retry-After)…
  const [address, networkLeads, guard] = await Promise.all([
    consumeRateLimit(deps.db, LEAD_IP_LIMIT, cmd.ip).catch((err: unknown) => err),
    countInWindow(deps.db, LEAD_NETWORK_COUNT, network),
    scoreLead(deps.db, ref.listingId),
  ]);
  const refundNetwork = () => refundRateLimit(deps.db, { ...LEAD_NETWORK_COUNT, points: COUNT_ONLY_POINTS }, network);
  if (typeof address !== 'number') {
    // …unless this form was stored before: a retry gets its lead, and nothing is counted for it.
    await refundNetwork();
    if (address instanceof AppError && address.status === 429) {
      const [earlier] = await earlierLeads(deps.db, [{ listingId: ref.listingId, idempotencyKey: input.idempotencyKey, contentHash: hex(contentHashOf(input)) }]);
      if (earlier && earlier.idempotencyKey === input.idempotencyKey) return { id: Number(earlier.id), created: false, retry: true, held: earlier.status === 'held' ? earlier.holdReasons : null };
    }
    throw address;
  }

  let hold: LeadHoldReason[] | null = null;
  const repeatKeys: [typeof LEAD_EMAIL_REPEATS | typeof LEAD_MESSAGE_REPEATS, string][] = [];
  if (guard.guarded) {
    const messageKey = messageKeyOf(input.message);
    repeatKeys.push([LEAD_EMAIL_REPEATS, `${ref.listingId}|${input.email.trim().toLowerCase()}`]);
    if (messageKey) repeatKeys.push([LEAD_MESSAGE_REPEATS, `${ref.listingId}|${messageKey}`]);
    const [[emailRepeats, messageRepeats = 0], proofOk] = await Promise.all([
      Promise.all(repeatKeys.map(([window, key]) => countInWindow(deps.db, window, key))),
      spendProof(deps, input.proof, cmd.mlsId, input.idempotencyKey, now),
    ]);
    const reasons = holdReasonsOf({ addressLeads: address, networkLeads, repeats: emailRepeats > 1 || messageRepeats > 1, proofOk });
    hold = reasons.length ? reasons : null;
  }

  // Once handed to the writer, the lead is written even if the process is stopping: the database stays open for it.
  const stored = await holdOpen(deps.db, deps.writer.submit({ ref, input, userAgent: cmd.userAgent, now, hold, trace: currentTraceCarrier() }));
  // A retry counts once: the form's first send was counted. (An exact repeat under another key counts.)
  if (stored.retry) {
    await Promise.all([
      refundRateLimit(deps.db, LEAD_IP_LIMIT, cmd.ip),
      refundNetwork(),
      ...repeatKeys.map(([window, key]) => refundRateLimit(deps.db, { ...window, points: COUNT_ONLY_POINTS }, key)),
    ]);
  }
  // Held for want of a proof (now, or at the form's first send): the page may still earn its delivery.
  const ownLead = stored.created || stored.retry;
  if (ownLead && heldForProofOnly(stored.held)) return { ...stored, challenge: deps.proofs.issue(cmd.mlsId, input.idempotencyKey, now) };
  return stored;
}

/**
 * One page of an agent's leads as the JSON sent (GET /api/agents/{id}/leads): the received ones, or those held
 * for review (`status`), newest first, each with its listing's address, price and mlsId, plus how many there
 * are in all and how many are held. Keyset pagination on (created_at,
 * id); the cursor carries the time in microseconds, so leads made in the same millisecond are neither
 * skipped nor repeated. The access rule comes from the cached agent facts, and the page is held a few
 * seconds in the read cache (emptied at once by a lead this process stores).
 */
export async function agentLeadsPageJson({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number, { limit, cursor, status }: AgentLeadsQuery): Promise<CachedJson> {
  await assertAgentAccess({ caches }, actor, agentId, 'signed_in');
  return caches.named<CachedJson>('agent-leads', ['leads', 'listings']).get(`${agentId}|${status}|${limit}|${cursor ?? ''}`, async () => {
    const page = Lead.query()
      .where({ agentId, status })
      .select('*', Lead.raw(`(extract(epoch from created_at) * 1000000)::bigint::text as created_us`))
      .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(limit + 1);
    if (cursor) {
      const [us, id] = cursor.split('.');
      page.whereRaw(`(created_at, id) < ('epoch'::timestamptz + ?::bigint * interval '1 microsecond', ?::bigint)`, [us, id]);
    }
    const [rows, total, held] = await Promise.all([
      page as unknown as Promise<(Lead & { createdUs: string })[]>,
      Lead.query().where({ agentId, status }).resultSize(),
      status === 'held' ? undefined : Lead.query().where({ agentId, status: 'held' }).resultSize(),
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
        held: held ?? total,
      } satisfies AgentLeadsPage),
    );
  });
}

/** A merge of agent `fromId` into `toId` (agents module's identity hooks): the leads follow the agent. */
export async function moveAgentLeads(trx: Knex.Transaction, fromId: number, toId: number): Promise<Record<string, number>> {
  const leads = await trx('leads').where({ agentId: fromId }).update({ agentId: toId });
  return { leads };
}

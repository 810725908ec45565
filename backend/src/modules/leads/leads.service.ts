import { LEAD_SOURCE_DEFAULT, type AgentLeadsPage, type AgentLeadsQuery, type LeadSubmission } from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import type { ReadCaches } from '../../platform/cache/read-cache';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import { consumeRateLimit } from '../../platform/http/rate-limit';
import { findListingSummaries, findPublicListingRef } from '../listings';
import { assertAgentAccess } from '../agents';
import { enqueueLeadDeliveries } from '../notifications';
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
}

export interface SubmitLead {
  mlsId: string;
  input: LeadSubmission;
  ip: string;
  userAgent: string | null;
  now?: number;
}

async function findByKey(listingId: number, key: string): Promise<number | undefined> {
  const row = await Lead.query().where({ listingId, idempotencyKey: key }).first().select('id');
  return row?.id;
}

/**
 * A lead from a public listing page (POST /api/listings/{mlsId}/leads). Guards in order: honeypot, the
 * signed time trap, then the same form sent before (its lead, without counting it again), then the rate
 * limits. The lead, its consent record and its delivery jobs are written in one transaction.
 * Returns the lead's id (a retry gets the first send's id). The listing (and, in notifications, the agent's
 * settings) come from the read cache, so a lead for a listing seen a moment ago reads neither.
 */
export async function submitLead(deps: LeadsDeps, cmd: SubmitLead): Promise<{ id: number; created: boolean }> {
  const { input } = cmd;
  const now = cmd.now ?? Date.now();
  if (input.website && input.website.trim() !== '') throw honeypotFilled();
  const token = deps.tokens.check(input.formToken, cmd.mlsId, now);
  if (token.result === 'invalid') throw formTokenInvalid();
  if (token.result === 'too_fast') throw sentTooFast(Math.ceil(token.waitMs / 1000));

  const ref = await findPublicListingRef({ caches: deps.caches }, cmd.mlsId);
  if (!ref) throw listingNotFound();
  const earlier = await findByKey(ref.listingId, input.idempotencyKey);
  if (earlier !== undefined) return { id: earlier, created: false };

  // Both counts in one round trip's time; either one spent refuses the lead (429 with Retry-After).
  await Promise.all([consumeRateLimit(deps.db, LEAD_IP_LIMIT, cmd.ip), consumeRateLimit(deps.db, LEAD_LISTING_LIMIT, String(ref.listingId))]);

  return deps.db.transaction(async (trx) => {
    // Two sends racing with one key: the unique key lets one insert; the other reads its id.
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
    const [row] = await trx('leads')
      .insert({
        ...lead,
        idempotencyKey: input.idempotencyKey,
        consentVersion: input.consentVersion,
        consentAt: input.consentVersion ? new Date(now) : null,
        pageUrl: input.pageUrl,
        userAgent: cmd.userAgent ? cmd.userAgent.slice(0, 1000) : null,
      })
      .onConflict(['listingId', 'idempotencyKey'])
      .ignore()
      .returning(['id', 'createdAt']);
    if (!row) {
      const existing = await trx('leads').where({ listingId: ref.listingId, idempotencyKey: input.idempotencyKey }).first('id');
      return { id: Number(existing.id), created: false };
    }
    const id = Number(row.id);
    await enqueueLeadDeliveries({ queue: deps.queue, config: deps.config, caches: deps.caches }, trx, { ...lead, id, createdAt: row.createdAt, listing: ref.listing });
    return { id, created: true };
  });
}

/**
 * One page of an agent's leads as the JSON sent (GET /api/agents/{id}/leads): newest first, each with its
 * listing's address, price and mlsId, plus how many there are in all. Keyset pagination on (created_at,
 * id); the cursor carries the time in microseconds, so leads made in the same millisecond are neither
 * skipped nor repeated. The access rule comes from the cached agent facts, and the page is held a few
 * seconds in the read cache (emptied at once by a lead this process stores).
 */
export async function agentLeadsPageJson({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number, { limit, cursor }: AgentLeadsQuery): Promise<string> {
  await assertAgentAccess({ caches }, actor, agentId);
  return caches.named<string>('agent-leads', ['leads', 'listings']).get(`${agentId}|${limit}|${cursor ?? ''}`, async () => {
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
    return JSON.stringify({
      leads: leads.map((l) => presentLead(l, listings.get(l.listingId))),
      total,
      nextCursor: more ? `${last.createdUs}.${last.id}` : null,
    } satisfies AgentLeadsPage);
  });
}

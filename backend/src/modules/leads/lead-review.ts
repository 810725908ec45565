import type { ReadCaches } from '../../platform/cache/read-cache';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import type { Actor } from '../../platform/auth/actor';
import { assertAgentAccess } from '../agents';
import { findListingSummaries, findPublicListingRef, type PublicListingRef } from '../listings';
import { enqueueLeadDeliveries } from '../notifications';
import { leadNotHeld, leadNotFound } from './leads.errors';

export interface ReviewDeps {
  db: Db;
  queue: Queue;
  config: Config;
  caches: ReadCaches;
}

/**
 * Hands a held lead to delivery exactly as a new lead (its snapshot, a message and a job per channel that is on,
 * in the transaction that marks it received). `agentId`: the agent's own lead only (the dashboard's Release);
 * null: the page's proof of work released it (`known`: its listing, as the lead's request resolved it). Answers
 * false when the lead was not held (any more).
 */
export async function releaseHeldLead(deps: ReviewDeps, leadId: number, agentId: number | null, known?: PublicListingRef): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const [lead] = await trx('leads')
      .where({ id: leadId, status: 'held' })
      .modify((q) => (agentId !== null ? q.where({ agentId }) : q))
      .update({ status: 'received', reviewedAt: trx.fn.now() })
      .returning('*');
    if (!lead) return false;
    // The listing as it is now, as a new lead's snapshot shows it (`known`: the caller just resolved it).
    const ref = known && known.listingId === lead.listingId ? known : await listingRefOf(deps, lead.listingId);
    if (!ref) throw leadNotFound();
    await enqueueLeadDeliveries({ queue: deps.queue, config: deps.config, caches: deps.caches }, trx, {
      id: lead.id,
      agentId: lead.agentId,
      listingId: lead.listingId,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      message: lead.message,
      source: lead.source,
      interestedInTour: lead.interestedInTour,
      interestedInSimilar: lead.interestedInSimilar,
      createdAt: lead.createdAt,
      listing: ref.listing,
    });
    return true;
  });
}

async function listingRefOf(deps: Pick<ReviewDeps, 'caches'>, listingId: number): Promise<PublicListingRef | undefined> {
  const mlsId = (await findListingSummaries([listingId])).get(listingId)?.mlsId;
  return mlsId ? findPublicListingRef({ caches: deps.caches }, mlsId) : undefined;
}

/** The dashboard's Release: the agent's held lead goes out on every channel that is on. 409 if it is not held. */
export async function releaseLead(deps: ReviewDeps, actor: Actor, agentId: number, leadId: number): Promise<void> {
  await assertAgentAccess({ caches: deps.caches }, actor, agentId, 'signed_in');
  if (await releaseHeldLead(deps, leadId, agentId)) return;
  throw (await deps.db('leads').where({ id: leadId, agentId }).first('id')) ? leadNotHeld() : leadNotFound();
}

/** The dashboard's Discard: the agent's held lead is kept (as discarded) and never delivered. 409 if it is not held. */
export async function discardLead(deps: Pick<ReviewDeps, 'db' | 'caches'>, actor: Actor, agentId: number, leadId: number): Promise<void> {
  await assertAgentAccess({ caches: deps.caches }, actor, agentId, 'signed_in');
  const updated = await deps.db('leads').where({ id: leadId, agentId, status: 'held' }).update({ status: 'discarded', reviewedAt: deps.db.fn.now() });
  if (updated) return;
  throw (await deps.db('leads').where({ id: leadId, agentId }).first('id')) ? leadNotHeld() : leadNotFound();
}

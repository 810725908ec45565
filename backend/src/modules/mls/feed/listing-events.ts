import { z } from 'zod';
import type { Knex } from 'knex';
import { defineEvent } from '../../../platform/jobs/job';
import type { Db } from '../../../platform/db/knex';
import type { ListingEventType, ListingPhase } from './classify';

/**
 * `mls.listing-events`: the events one replicated page (or one re-read) stored, announced in the same
 * transaction. Any module may subscribe (autopilot does); the mls module never knows who listens. A name
 * is a public contract: never renamed.
 */
export const listingEventsPublished = defineEvent({
  name: 'mls.listing-events',
  payload: z.object({
    feed: z.string().min(1).max(50),
    eventIds: z.array(z.number().int().positive()).min(1).max(10_000),
  }),
});
export type ListingEventsPayload = z.infer<typeof listingEventsPublished.payload>;

/** One change of one listing, as other modules read it. */
export interface ListingEvent {
  id: number;
  feed: string;
  listingKey: string;
  /** The listing agent's MLS ID (RESO ListAgentMlsId). */
  agentMlsId: string | null;
  type: ListingEventType;
  /** When the MLS changed the record (its ModificationTimestamp), or when a deletion was found. */
  occurredAt: Date;
  /** When we stored the change. */
  detectedAt: Date;
  previousPhase: ListingPhase | null;
  phase: ListingPhase;
  previousPriceCents: number | null;
  priceCents: number | null;
  reason: string | null;
}

interface EventRow {
  id: string | number;
  feed: string;
  listingKey: string;
  listAgentMlsId: string | null;
  type: ListingEventType;
  occurredAt: Date;
  detectedAt: Date;
  previousPhase: ListingPhase | null;
  phase: ListingPhase;
  previousPriceCents: string | number | null;
  priceCents: string | number | null;
  reason: string | null;
}

const num = (v: string | number | null) => (v === null ? null : Number(v));

function toEvent(r: EventRow): ListingEvent {
  return {
    id: Number(r.id),
    feed: r.feed,
    listingKey: r.listingKey,
    agentMlsId: r.listAgentMlsId,
    type: r.type,
    occurredAt: r.occurredAt,
    detectedAt: r.detectedAt,
    previousPhase: r.previousPhase,
    phase: r.phase,
    previousPriceCents: num(r.previousPriceCents),
    priceCents: num(r.priceCents),
    reason: r.reason,
  };
}

/** Stored events by id, optionally only those of some listing agents; in id order. */
export async function findListingEvents(db: Db | Knex.Transaction, ids: readonly number[], opts: { agentMlsIds?: readonly string[] } = {}): Promise<ListingEvent[]> {
  if (!ids.length) return [];
  const q = db('mlsListingEvents').whereIn('id', ids as number[]).orderBy('id');
  if (opts.agentMlsIds) q.whereIn('listAgentMlsId', opts.agentMlsIds as string[]);
  return ((await q) as EventRow[]).map(toEvent);
}

/** The newest events (ops and tests), optionally for one listing agent. */
export async function recentListingEvents(db: Db, opts: { agentMlsId?: string; limit?: number } = {}): Promise<ListingEvent[]> {
  const q = db('mlsListingEvents').orderBy('id', 'desc').limit(opts.limit ?? 50);
  if (opts.agentMlsId) q.where({ listAgentMlsId: opts.agentMlsId });
  return ((await q) as EventRow[]).map(toEvent);
}

import { lookupKey } from '../reso-mapping';

/**
 * What a listing's record says about it, and what a change of record means (DESIGN §7). Pure functions:
 * the replication (replicate.ts) applies them to every record of a page.
 */

/** Where a listing stands on the market. */
export type ListingPhase = 'active' | 'pending' | 'sold' | 'off_market' | 'other';

/** The change events, one stored row each, unique per listing, type and time. */
export const LISTING_EVENT_TYPES = ['new', 'price_drop', 'pending', 'sold', 'withdrawn', 'back_on_market'] as const;
export type ListingEventType = (typeof LISTING_EVENT_TYPES)[number];

const PHASE_OF_STATUS: Record<string, ListingPhase> = {
  active: 'active',
  comingsoon: 'active',
  activeundercontract: 'pending',
  pending: 'pending',
  closed: 'sold',
  withdrawn: 'off_market',
  expired: 'off_market',
  canceled: 'off_market',
  cancelled: 'off_market',
  delete: 'off_market',
  deleted: 'off_market',
  hold: 'off_market',
};

/**
 * RESO StandardStatus → phase. A record the MLS no longer lets us show (MLS Grid's `MlgCanView: false`, its
 * way of deleting) is off the market whatever its status says.
 */
export function phaseOf(record: { StandardStatus?: unknown; MlgCanView?: unknown }): ListingPhase {
  if (record.MlgCanView === false) return 'off_market';
  return PHASE_OF_STATUS[lookupKey(record.StandardStatus) ?? ''] ?? 'other';
}

export interface ListingState {
  phase: ListingPhase;
  priceCents: number | null;
}

/**
 * The events a record's change stands for, from the listing's previous state (null: never seen):
 * - new: first seen on the market (active), or back from another phase we never saw it leave for;
 * - price_drop: still active, at a lower list price;
 * - pending, sold: it went under contract, it closed;
 * - withdrawn: withdrawn, expired, canceled or deleted;
 * - back_on_market: active again after pending, off the market or sold.
 * A listing first seen pending or off the market is not news; first seen sold, it is (a Just Sold ad).
 */
export function classifyChange(previous: ListingState | null, next: ListingState): ListingEventType[] {
  if (!previous) {
    if (next.phase === 'active') return ['new'];
    if (next.phase === 'sold') return ['sold'];
    return [];
  }
  if (previous.phase === next.phase) {
    const dropped = next.phase === 'active' && previous.priceCents !== null && next.priceCents !== null && next.priceCents < previous.priceCents;
    return dropped ? ['price_drop'] : [];
  }
  switch (next.phase) {
    case 'active':
      return previous.phase === 'other' ? ['new'] : ['back_on_market'];
    case 'pending':
      return ['pending'];
    case 'sold':
      return ['sold'];
    case 'off_market':
      return ['withdrawn'];
    default:
      return [];
  }
}

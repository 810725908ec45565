import type { Knex } from 'knex';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import type { Queue } from '../../../platform/jobs/queue';
import { ODATA_DATETIME, type FeedCursor, type MlsProvider } from '../providers';
import { classifyChange, phaseOf, type ListingEventType, type ListingPhase } from './classify';
import { listingEventsPublished } from './listing-events';

/**
 * RESO incremental replication of one feed (DESIGN §7). Pages come in (ModificationTimestamp, ListingKey)
 * order (providers' changesPage); each page is applied in ONE transaction: our copy of the listings
 * (mls_feed_listings), the events its changes stand for (mls_listing_events, unique per listing, type and
 * time), the `mls.listing-events` announcement, and the feed's watermark. A crash between pages loses
 * nothing and repeats nothing: the next run starts after the last page that committed. Replaying older
 * records changes nothing: a record no newer than our copy is not applied, so it makes no event.
 */

export interface FeedDeps {
  db: Db;
  queue: Pick<Queue, 'publish'>;
  provider: MlsProvider;
  logger: Logger;
  /** Records asked for per keyset query ($top). */
  top: number;
}

/** A record of a page, read for what replication needs. */
interface Parsed {
  key: string;
  stamp: string;
  agent: string | null;
  phase: ListingPhase;
  status: string | null;
  priceCents: number | null;
  record: Record<string, unknown>;
}

function parse(raw: unknown): Parsed | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const key = typeof r.ListingKey === 'string' ? r.ListingKey.trim() : typeof r.ListingKey === 'number' ? String(r.ListingKey) : '';
  const stamp = typeof r.ModificationTimestamp === 'string' ? r.ModificationTimestamp.trim() : '';
  if (!key || key.length > 255 || !ODATA_DATETIME.test(stamp) || Number.isNaN(Date.parse(stamp))) return null;
  const price = typeof r.ListPrice === 'number' ? r.ListPrice : typeof r.ListPrice === 'string' && /^\d+(\.\d+)?$/.test(r.ListPrice) ? Number(r.ListPrice) : null;
  const { '@odata.context': _context, '@odata.id': _id, ...record } = r;
  return {
    key,
    stamp,
    agent: typeof r.ListAgentMlsId === 'string' ? r.ListAgentMlsId.slice(0, 100) : null,
    phase: phaseOf(r),
    status: typeof r.StandardStatus === 'string' ? r.StandardStatus.slice(0, 100) : null,
    priceCents: price === null || !Number.isFinite(price) ? null : Math.round(price * 100),
    record,
  };
}

/** Why the event was recorded, in the MLS's words. */
function reasonFor(type: ListingEventType, p: Parsed, previous: { priceCents: number | null } | null): string {
  if (p.record.MlgCanView === false) return 'MlgCanView is false (deleted by the MLS)';
  if (type === 'price_drop') return `ListPrice ${(previous!.priceCents! / 100).toFixed(0)} → ${((p.priceCents ?? 0) / 100).toFixed(0)}`;
  return `StandardStatus ${p.status ?? 'missing'}`;
}

/** (time, key) order, as the server sorts: by instant, then by the timestamp's own digits, then bytewise by key. */
export function cursorAfter(a: FeedCursor, b: FeedCursor | null): boolean {
  if (!b) return true;
  const ta = Date.parse(a.timestamp);
  const tb = Date.parse(b.timestamp);
  if (ta !== tb) return ta > tb;
  const fa = (/\.(\d+)/.exec(a.timestamp)?.[1] ?? '').padEnd(7, '0');
  const fb = (/\.(\d+)/.exec(b.timestamp)?.[1] ?? '').padEnd(7, '0');
  if (fa !== fb) return fa > fb;
  return Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)) > 0;
}

export interface PageResult {
  /** Records whose change was applied to our copy. */
  applied: number;
  /** Records no newer than our copy (a replay): left alone. */
  stale: number;
  /** Records without a usable ListingKey or ModificationTimestamp. */
  skipped: number;
  eventIds: number[];
  /** The watermark after this page. */
  cursor: FeedCursor | null;
}

export class FeedLeaseLost extends Error {
  override readonly name = 'FeedLeaseLost';
}

/**
 * Apply one page in the caller's transaction. `events: false` while the feed's first pass is copying what
 * the MLS already had (not news). The watermark moves only forward, and only for the lease holder.
 */
export async function applyPage(
  trx: Knex.Transaction,
  deps: Pick<FeedDeps, 'queue'>,
  page: { feed: string; owner: string | null; records: unknown[]; events: boolean; watermark: FeedCursor | null; moveWatermark?: boolean },
): Promise<PageResult> {
  const byKey = new Map<string, Parsed>();
  let skipped = 0;
  let last: FeedCursor | null = null;
  for (const raw of page.records) {
    const p = parse(raw);
    if (!p) {
      skipped++;
      continue;
    }
    byKey.set(p.key, p); // a key twice in one page: the later record counts
    const c = { timestamp: p.stamp, key: p.key };
    if (cursorAfter(c, last)) last = c;
  }
  const parsed = [...byKey.values()];
  // Rows of a raw result keep their SQL names.
  let applied: { listing_key: string; previous_phase: ListingPhase | null; previous_price_cents: string | null }[] = [];
  if (parsed.length) {
    const incoming = parsed.map((p) => ({
      k: p.key,
      a: p.agent,
      ph: p.phase,
      s: p.status,
      pr: p.priceCents,
      t: p.stamp,
      d: p.phase === 'off_market' && p.record.MlgCanView === false,
      r: p.record,
    }));
    // The previous state is read in the same statement that replaces it (one snapshot), and only a newer record replaces it.
    const result = (await trx.raw(
      `with incoming as (
         select * from jsonb_to_recordset(?::jsonb) as x(k text, a text, ph text, s text, pr bigint, t timestamptz, d boolean, r jsonb)
       ), previous as (
         select m.listing_key, m.phase, m.list_price_cents from mls_feed_listings m join incoming i on i.k = m.listing_key where m.feed = ?
       ), upserted as (
         insert into mls_feed_listings as m (feed, listing_key, list_agent_mls_id, phase, standard_status, list_price_cents, modification_timestamp, deleted, record, seen_at)
         select ?, k, a, ph, s, pr, t, d, r, now() from incoming
         on conflict (feed, listing_key) do update
           set list_agent_mls_id = excluded.list_agent_mls_id, phase = excluded.phase, standard_status = excluded.standard_status,
               list_price_cents = excluded.list_price_cents, modification_timestamp = excluded.modification_timestamp,
               deleted = excluded.deleted, record = excluded.record, seen_at = now()
           where m.modification_timestamp < excluded.modification_timestamp
         returning listing_key
       )
       select u.listing_key, p.phase as previous_phase, p.list_price_cents as previous_price_cents
         from upserted u left join previous p on p.listing_key = u.listing_key`,
      [JSON.stringify(incoming), page.feed, page.feed],
    )) as { rows: { listing_key: string; previous_phase: ListingPhase | null; previous_price_cents: string | null }[] };
    applied = result.rows;
  }

  const eventIds: number[] = [];
  if (page.events && applied.length) {
    const events: { k: string; a: string | null; ty: ListingEventType; t: string; pp: ListingPhase | null; ph: ListingPhase; ppr: number | null; pr: number | null; re: string }[] = [];
    for (const row of applied) {
      const p = byKey.get(row.listing_key)!;
      const previous = row.previous_phase ? { phase: row.previous_phase, priceCents: row.previous_price_cents === null ? null : Number(row.previous_price_cents) } : null;
      for (const type of classifyChange(previous, { phase: p.phase, priceCents: p.priceCents })) {
        events.push({ k: p.key, a: p.agent, ty: type, t: p.stamp, pp: previous?.phase ?? null, ph: p.phase, ppr: previous?.priceCents ?? null, pr: p.priceCents, re: reasonFor(type, p, previous) });
      }
    }
    if (events.length) {
      const inserted = (await trx.raw(
        `insert into mls_listing_events (feed, listing_key, list_agent_mls_id, type, occurred_at, previous_phase, phase, previous_price_cents, price_cents, reason)
         select ?, k, a, ty, t, pp, ph, ppr, pr, re
           from jsonb_to_recordset(?::jsonb) as x(k text, a text, ty text, t timestamptz, pp text, ph text, ppr bigint, pr bigint, re text)
         on conflict on constraint mls_listing_events_unique do nothing
         returning id`,
        [page.feed, JSON.stringify(events)],
      )) as { rows: { id: string }[] };
      for (const r of inserted.rows) eventIds.push(Number(r.id));
    }
  }
  if (eventIds.length) await deps.queue.publish(listingEventsPublished, { feed: page.feed, eventIds }, { trx });

  const forward = last && cursorAfter(last, page.watermark) ? last : null;
  if (page.moveWatermark !== false) {
    const moved = await trx('mlsFeeds')
      .where({ name: page.feed })
      .modify((q) => (page.owner ? q.where({ leaseOwner: page.owner }) : q))
      .update({
        ...(forward ? { watermarkTimestamp: forward.timestamp, watermarkKey: forward.key } : {}),
        recordsApplied: trx.raw('records_applied + ?', [applied.length]),
        // Each committed page renews the lease: a long first pass keeps it as long as it makes progress.
        leaseUntil: page.owner ? trx.raw(`now() + interval '${FEED_LEASE_MINUTES} minutes'`) : trx.raw('lease_until'),
        updatedAt: trx.fn.now(),
      });
    if (!moved) throw new FeedLeaseLost(`feed ${page.feed}: the poll's lease was taken over; this page is not applied`);
  }
  return { applied: applied.length, stale: parsed.length - applied.length, skipped, eventIds, cursor: forward ?? page.watermark };
}

/** How long a poll's claim on its feed holds without progress (each page renews it). */
export const FEED_LEASE_MINUTES = 10;

export interface FeedRow {
  name: string;
  watermarkTimestamp: string | null;
  watermarkKey: string | null;
  baselinedAt: Date | null;
  nextPollAt: Date | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  lastPolledAt: Date | null;
  lastError: string | null;
  recordsApplied: string | number;
}

export interface ReplicationResult {
  pages: number;
  records: number;
  applied: number;
  stale: number;
  skipped: number;
  events: number;
  caughtUp: boolean;
  /** True when this pass was the feed's first (its records were copied without events). */
  baseline: boolean;
  cursor: FeedCursor | null;
}

/**
 * Replicate a feed from its watermark until the MLS has nothing newer (or `maxPages`), one transaction per
 * page. The caller holds the feed's lease (`owner`; poll.ts).
 */
export async function replicateFeed(deps: FeedDeps, feedName: string, owner: string | null, opts: { maxPages?: number } = {}): Promise<ReplicationResult> {
  const { db, provider, logger, top } = deps;
  const feed = (await db('mlsFeeds').where({ name: feedName }).first()) as FeedRow | undefined;
  if (!feed) throw new Error(`no feed ${feedName}`);
  const baseline = !feed.baselinedAt;
  let cursor: FeedCursor | null = feed.watermarkTimestamp && feed.watermarkKey !== null ? { timestamp: feed.watermarkTimestamp, key: feed.watermarkKey } : null;
  const out: ReplicationResult = { pages: 0, records: 0, applied: 0, stale: 0, skipped: 0, events: 0, caughtUp: false, baseline, cursor };
  let nextLink: string | null = null;
  let servedInQuery = 0;
  for (;;) {
    const page = await provider.changesPage({ after: cursor, nextLink, top });
    if (page.via === 'keyset') servedInQuery = 0;
    if (page.fellBack) logger.info({ feed: feedName, reason: page.fellBack }, 'replication: continuing by the keyset');
    servedInQuery += page.records.length;
    const watermark = cursor;
    const result = await db.transaction((trx) => applyPage(trx, deps, { feed: feedName, owner, records: page.records, events: !baseline, watermark }));
    cursor = result.cursor;
    out.pages++;
    out.records += page.records.length;
    out.applied += result.applied;
    out.stale += result.stale;
    out.skipped += result.skipped;
    out.events += result.eventIds.length;
    if (result.skipped) logger.warn({ feed: feedName, skipped: result.skipped }, 'replication: records without a ListingKey or ModificationTimestamp skipped');
    nextLink = page.nextLink;
    // The query is done when the server has no next page and sent fewer records than asked: nothing newer is left.
    const done = !nextLink && (page.records.length === 0 || servedInQuery < top);
    if (done) {
      out.caughtUp = true;
      break;
    }
    if (opts.maxPages && out.pages >= opts.maxPages) break;
  }
  out.cursor = cursor;
  if (out.caughtUp && baseline) await db('mlsFeeds').where({ name: feedName }).whereNull('baselinedAt').update({ baselinedAt: db.fn.now(), updatedAt: db.fn.now() });
  return out;
}

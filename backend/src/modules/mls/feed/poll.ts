import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import type { Queue } from '../../../platform/jobs/queue';
import { upsertMlsListings, agentListingIdByMlsId } from '../../listings';
import { mapResoProperty } from '../reso-mapping';
import { DEMO_PHOTOS_PATH } from '../demo/demo-feed';
import { createMlsProvider, type MlsProvider } from '../providers';
import { phaseOf, type ListingPhase } from './classify';
import { listingEventsPublished } from './listing-events';
import { applyPage, FEED_LEASE_MINUTES, replicateFeed, type FeedRow, type ReplicationResult } from './replicate';

/**
 * Polling (DESIGN §7): the job `mls.poll-feeds` runs every minute in whichever process pg-boss hands it to;
 * a feed is polled when its `next_poll_at` has come (every MLS_POLL_INTERVAL_S), by the one poll holding its
 * lease (a conditional UPDATE: any number of processes and the ops CLI, one poll at a time).
 */

export interface PollDeps {
  db: Db;
  queue: Pick<Queue, 'publish'>;
  config: Pick<Config, 'MLS_POLL_INTERVAL_S' | 'RESO_REPLICATION_TOP'>;
  logger: Logger;
  provider: MlsProvider;
}

/** A poll's result, or why there was none. */
export type PollOutcome = { polled: true; feed: string; result: ReplicationResult } | { polled: false; feed: string; reason: 'not_due' | 'busy' };

/** The feed a provider replicates: one per configured MLS, named after it. */
export const feedNameOf = (provider: MlsProvider) => provider.name;

/** A poll comes back on the minute's schedule: the next one is due this much before a full interval has passed. */
const SCHEDULE_SLACK_SECONDS = 30;

async function claim(db: Db, feed: string, owner: string, force: boolean): Promise<boolean> {
  await db('mlsFeeds').insert({ name: feed }).onConflict('name').ignore();
  const claimed = await db('mlsFeeds')
    .where({ name: feed })
    .andWhere((q) => q.whereNull('leaseUntil').orWhere('leaseUntil', '<', db.fn.now()))
    .modify((q) => (force ? q : q.andWhere((d) => d.whereNull('nextPollAt').orWhere('nextPollAt', '<=', db.fn.now()))))
    .update({ leaseOwner: owner, leaseUntil: db.raw(`now() + interval '${FEED_LEASE_MINUTES} minutes'`), updatedAt: db.fn.now() });
  return claimed === 1;
}

async function release(db: Db, feed: string, owner: string, intervalSeconds: number, error: string | null): Promise<void> {
  await db('mlsFeeds')
    .where({ name: feed, leaseOwner: owner })
    .update({
      leaseOwner: null,
      leaseUntil: null,
      lastPolledAt: db.fn.now(),
      lastError: error ? error.slice(0, 2000) : null,
      nextPollAt: db.raw(`now() + make_interval(secs => ?)`, [Math.max(0, intervalSeconds - SCHEDULE_SLACK_SECONDS)]),
      updatedAt: db.fn.now(),
    });
}

/**
 * Poll the provider's feed if it is due (or `force`: `npm run ops -- mls poll`). One poll at a time per
 * feed across processes; a failed poll keeps what it applied (page by page) and tries again next time.
 */
export async function pollFeed(deps: PollDeps, opts: { force?: boolean; maxPages?: number } = {}): Promise<PollOutcome> {
  const feed = feedNameOf(deps.provider);
  const owner = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  if (!(await claim(deps.db, feed, owner, !!opts.force))) {
    const row = (await deps.db('mlsFeeds').where({ name: feed }).first('leaseUntil')) as { leaseUntil: Date | null } | undefined;
    return { polled: false, feed, reason: row?.leaseUntil && row.leaseUntil > new Date() ? 'busy' : 'not_due' };
  }
  const log = deps.logger.child({ feed });
  const started = Date.now();
  try {
    const result = await replicateFeed({ ...deps, top: deps.config.RESO_REPLICATION_TOP }, feed, owner, { maxPages: opts.maxPages });
    await release(deps.db, feed, owner, deps.config.MLS_POLL_INTERVAL_S, null);
    log.info({ ...result, ms: Date.now() - started }, result.baseline ? 'MLS feed copied (first pass: no events)' : 'MLS feed polled');
    return { polled: true, feed, result };
  } catch (err) {
    await release(deps.db, feed, owner, deps.config.MLS_POLL_INTERVAL_S, (err as Error).message).catch(() => undefined);
    log.warn({ err: (err as Error).message, ms: Date.now() - started }, 'MLS feed poll failed; the next poll resumes from the last page applied');
    throw err;
  }
}

/** The configured MLS's provider for polling (the RESO provider with its limits, or the demo MLS). */
export function pollProvider(config: Config, db: Db, logger: Logger): MlsProvider {
  return createMlsProvider(config, db, logger);
}

/** The mapping options of a feed's records (the demo's photos are paths on this server). */
const mappingOf = (feed: string) => (feed === 'demo' ? { localPhotoPrefix: DEMO_PHOTOS_PATH } : {});

/**
 * Is the listing still on the market? Asks the MLS again (RESO `Property('KEY')`): a 404 means the MLS
 * deleted it (servers without a delete flag simply stop serving it), which is stored as a `withdrawn`
 * event; a newer record is applied like a replicated one (its events included). Autopilot asks this
 * before it charges for an ad. Returns the listing's phase now.
 */
export async function recheckFeedListing(deps: Omit<PollDeps, 'config'>, listingKey: string): Promise<ListingPhase> {
  const feed = feedNameOf(deps.provider);
  const record = await deps.provider.readListing(listingKey);
  return deps.db.transaction(async (trx) => {
    const baselined = !!(await trx('mlsFeeds').where({ name: feed }).whereNotNull('baselinedAt').first('name'));
    if (record) {
      await applyPage(trx, deps, { feed, owner: null, records: [record], events: baselined, watermark: null, moveWatermark: false });
      return phaseOf(record as Record<string, unknown>);
    }
    const known = (await trx('mlsFeedListings').where({ feed, listingKey }).forUpdate().first('listAgentMlsId', 'phase', 'listPriceCents')) as
      | { listAgentMlsId: string | null; phase: ListingPhase; listPriceCents: string | null }
      | undefined;
    if (known && known.phase !== 'off_market') {
      await trx('mlsFeedListings').where({ feed, listingKey }).update({ phase: 'off_market', deleted: true, seenAt: trx.fn.now() });
      const [row] = (await trx('mlsListingEvents')
        .insert({
          feed,
          listingKey,
          listAgentMlsId: known.listAgentMlsId,
          type: 'withdrawn',
          occurredAt: trx.fn.now(),
          previousPhase: known.phase,
          phase: 'off_market',
          previousPriceCents: known.listPriceCents,
          priceCents: known.listPriceCents,
          reason: 'the MLS answered 404 on re-read (deleted)',
        })
        .onConflict(['feed', 'listingKey', 'type', 'occurredAt'])
        .ignore()
        .returning('id')) as { id: string }[];
      if (row && baselined) await deps.queue.publish(listingEventsPublished, { feed, eventIds: [Number(row.id)] }, { trx });
    }
    return 'off_market';
  });
}

/**
 * Our listing for a feed's record, for one of our agents (autopilot's drafts): the replicated record mapped as
 * the wizard's load maps it, written through the listings module. Returns the listing's id, or null when the
 * record cannot be shown (no price, no address…: the mapping's skipped and ignored records).
 */
export async function importFeedListing(trx: Knex.Transaction, feed: string, agentId: number, listingKey: string): Promise<number | null> {
  const row = (await trx('mlsFeedListings').where({ feed, listingKey }).first('record')) as { record: Record<string, unknown> | null } | undefined;
  if (!row?.record) return null;
  const mapped = mapResoProperty(row.record, mappingOf(feed));
  if (mapped.kind !== 'listing') return null;
  await upsertMlsListings(trx, agentId, [mapped.listing]);
  return agentListingIdByMlsId(trx, agentId, mapped.listing.mlsId);
}

export type { FeedRow };

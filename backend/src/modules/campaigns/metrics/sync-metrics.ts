import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import { transitionCampaignsWhere } from '../campaign-transitions';
import { adPlatformForCampaignId, AdPlatformError, type AdPlatform, type Delivery } from '../providers';

export interface SyncDeps {
  db: Db;
  config: Config;
  logger: Logger;
  signal?: AbortSignal;
  /** Tests hand in a sandbox with a clock; otherwise each campaign's platform is chosen by its id. */
  platformFor?: (platformCampaignId: string) => AdPlatform | undefined;
}

export interface SyncResult {
  updated: number;
  completed: number[];
  stuckLaunches: number[];
}

const BATCH = 200;

/**
 * One pass of campaigns.sync-metrics:
 *  1. delivery of every active campaign from its ad platform, written with one UPDATE per batch;
 *  2. campaigns past ends_at → completed (once a sync after the end has recorded the final numbers,
 *     or a day after the end whatever happened), in one statement with their transitions;
 *  3. launches that stopped without an outcome (their job is no longer queued, running or retrying,
 *     e.g. the last attempt died with its process) → launch_failed, so ops see them and can redrive.
 */
export async function syncCampaignMetrics(deps: SyncDeps): Promise<SyncResult> {
  const { db, logger } = deps;
  const log = logger.child({ job: 'campaigns.sync-metrics' });
  const platformFor = deps.platformFor ?? ((id: string) => adPlatformForCampaignId(id, { db, config: deps.config, logger, signal: deps.signal }));

  let updated = 0;
  let lastId = 0;
  const throttled = new Set<string>();
  for (;;) {
    const rows: { id: number; facebookCampaignId: string }[] = await db('campaigns')
      .where({ status: 'active' })
      .whereNotNull('facebookCampaignId')
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(BATCH)
      .select('id', 'facebookCampaignId');
    if (!rows.length) break;
    lastId = rows[rows.length - 1].id;

    // Group by platform (a campaign launched on the sandbox keeps reading from it after Meta is configured).
    const groups = new Map<string, { platform: AdPlatform; ids: string[] }>();
    for (const r of rows) {
      const platform = platformFor(r.facebookCampaignId);
      if (!platform || throttled.has(platform.name)) continue;
      const group = groups.get(platform.name) ?? { platform, ids: [] };
      group.ids.push(r.facebookCampaignId);
      groups.set(platform.name, group);
    }
    const delivery = new Map<string, Delivery>();
    for (const { platform, ids } of groups.values()) {
      try {
        for (const [id, d] of await platform.getDelivery(ids)) delivery.set(id, d);
      } catch (err) {
        // Throttled or down: keep what we have and try again next minute.
        if (err instanceof AdPlatformError) throttled.add(platform.name);
        log.warn({ provider: platform.name, err: (err as Error).message }, 'delivery read failed; next pass retries');
      }
    }
    const values = rows.filter((r) => delivery.has(r.facebookCampaignId)).map((r) => ({ id: r.id, ...delivery.get(r.facebookCampaignId)! }));
    if (values.length) {
      // The totals, and today's row of the daily series (the dashboard's chart), in one statement.
      await db.raw(
        `with synced as (
           update campaigns c
              set impressions_delivered = v.impressions, reach = v.reach, clicks = v.clicks,
                  metrics_updated_at = now(), updated_at = now()
             from (values ${values.map(() => '(?::int, ?::int, ?::int, ?::int)').join(', ')}) as v(id, impressions, reach, clicks)
            where c.id = v.id and c.status = 'active'
           returning c.id, c.impressions_delivered, c.reach, c.clicks)
         insert into campaign_daily_metrics (campaign_id, day, impressions, reach, clicks)
         select id, (now() at time zone 'UTC')::date, impressions_delivered, reach, clicks from synced
         on conflict (campaign_id, day) do update
           set impressions = excluded.impressions, reach = excluded.reach, clicks = excluded.clicks, updated_at = now()`,
        values.flatMap((v) => [v.id, v.impressions, v.reach, v.clicks]),
      );
      updated += values.length;
    }
    if (rows.length < BATCH) break;
  }

  const completed = await db.transaction(async (trx) => {
    const ids = await transitionCampaignsWhere(trx, 'active', 'completed', 'timeframe ended', {
      sql: `c.ends_at <= now() and (c.metrics_updated_at >= c.ends_at or c.ends_at <= now() - interval '1 day')`,
    });
    if (ids.length) {
      await trx('adSets').whereIn('campaignId', ids).update({ status: 'completed' });
      await trx('ads').whereIn('adSetId', trx('adSets').whereIn('campaignId', ids).select('id')).update({ status: 'completed' });
    }
    return ids;
  });

  const stuckLaunches = await failStuckLaunches(db);
  if (updated || completed.length || stuckLaunches.length) log.info({ updated, completed, stuckLaunches }, 'metrics synced');
  return { updated, completed, stuckLaunches };
}

const STUCK_REASON = 'The launch stopped without finishing (its job is no longer queued); ops can retry it with `npm run ops -- jobs redrive campaigns.launch`';

/**
 * A launch whose last attempt died with its process (pg-boss then dead-letters the job without our
 * handler ever seeing the failure) would stay "launching" forever: after ten quiet minutes, with no
 * lease and no queued, running or retrying launch job for it, it becomes launch_failed.
 */
async function failStuckLaunches(db: Db): Promise<number[]> {
  return db.transaction(async (trx) => {
    const ids: number[] = [];
    for (const from of ['paid', 'launching'] as const) {
      ids.push(
        ...(await transitionCampaignsWhere(trx, from, 'launch_failed', STUCK_REASON, {
          sql: `c.status_changed_at < now() - interval '10 minutes'
                and (c.launch_lease_until is null or c.launch_lease_until < now())
                and not exists (
                  select 1 from pgboss.job j
                   where j.name = 'campaigns.launch' and j.state in ('created', 'retry', 'active')
                     and j.data->>'campaignId' = c.id::text)`,
        })),
      );
    }
    if (ids.length) await trx('campaigns').whereIn('id', ids).update({ launchError: STUCK_REASON, launchLeaseJob: null, launchLeaseUntil: null });
    return ids;
  });
}

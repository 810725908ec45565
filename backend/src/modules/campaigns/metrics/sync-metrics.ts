import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';
import { openJobExists } from '../../../platform/jobs/job-table';
import { scaledMs } from '../../../platform/jobs/scaled-schedule';
import { transitionCampaignsWhere } from '../campaign-transitions';
import { LAUNCH_JOB_NAME } from '../jobs/launch-campaign.job';
import { adPlatformForCampaignId, AdPlatformError, type AdPlatform, type CampaignInsights } from '../providers';

export interface SyncDeps {
  db: Db;
  config: Config;
  logger: Logger;
  signal?: AbortSignal;
  /** Tests hand in a sandbox with a clock; otherwise each campaign's platform is chosen by its id. */
  platformFor?: (platformCampaignId: string) => AdPlatform | undefined;
  /** Read every campaign now, however recently it was read (ops, tests, the bench). */
  force?: boolean;
}

export interface SyncResult {
  /** Campaigns whose delivery was read. */
  updated: number;
  /** Daily rows inserted or changed (a re-read that changes nothing writes none). */
  rowsChanged: number;
  /** Campaigns that ended in this pass (goal reached or flight over): stopped at the platform, now completed. */
  completed: number[];
  stuckLaunches: number[];
  /** Calls made to the ad platforms, and platforms left alone for now (near their rate limit). */
  calls: number;
  backedOff: string[];
}

/** How often a running campaign's delivery is read (Meta refreshes insights about every 15 minutes). */
export const SYNC_INTERVAL_MS = 15 * 60_000;
/** Ended campaigns are read on until they are settled (late numbers); at most this many per pass. */
const MAX_PER_PASS = 5000;
const WRITE_BATCH = 500;

interface DueCampaign {
  id: number;
  facebookCampaignId: string;
  status: 'active' | 'completed';
  startsAt: Date | null;
  createdAt: Date;
}

/**
 * One pass of campaigns.sync-metrics:
 *  1. delivery of the campaigns due a read (active ones every SYNC_INTERVAL_MS, ended ones until settled)
 *     from their ad platform: daily rows (campaign_daily_metrics, upserted: a row changes only when a
 *     figure did) and the lifetime totals on the campaign, in one statement per batch; a platform near its
 *     rate limit is left alone until the time it named (ad_platform_usage, shared by every process);
 *  2. flight end: campaigns that reached their goal, or whose flight is over (and read since), are stopped
 *     at the platform, read once more, and become completed (ended_at, end_reason) for the reports module to
 *     settle;
 *  3. launches that stopped without an outcome → launch_failed, so ops see them and can redrive.
 * CAMPAIGN_TIME_SCALE shortens the interval.
 */
export async function syncCampaignMetrics(deps: SyncDeps): Promise<SyncResult> {
  const { db, logger, config } = deps;
  const log = logger.child({ job: 'campaigns.sync-metrics' });
  const platformFor = deps.platformFor ?? ((id: string) => adPlatformForCampaignId(id, { db, config, logger, signal: deps.signal }));
  const interval = scaledMs(config, SYNC_INTERVAL_MS);

  const due: DueCampaign[] = await db('campaigns')
    .whereNotNull('facebookCampaignId')
    .where((q) => q.where({ status: 'active' }).orWhere((c) => c.where({ status: 'completed' }).whereNull('settledAt').whereNotNull('endedAt')))
    .modify((q) => {
      // Due: never read, or read longer ago than the interval; an active campaign past its flight at once (its end waits for it).
      if (!deps.force) {
        q.where((w) =>
          w
            .whereNull('metricsUpdatedAt')
            .orWhere('metricsUpdatedAt', '<', new Date(Date.now() - interval))
            .orWhere((x) => x.where({ status: 'active' }).where('endsAt', '<=', db.fn.now()).whereRaw('metrics_updated_at < ends_at')),
        );
      }
    })
    .orderBy('id')
    .limit(MAX_PER_PASS)
    .select('id', 'facebookCampaignId', 'status', 'startsAt', 'createdAt');

  const read = await readDelivery(deps, platformFor, due);
  const rowsChanged = await writeDelivery(db, due, read.insights);

  const completed = await endFlights(deps, platformFor, log);
  const stuckLaunches = await failStuckLaunches(db);
  const updated = read.insights.size;
  if (updated || completed.length || stuckLaunches.length) log.info({ updated, rowsChanged, completed: completed.length, stuckLaunches, calls: read.calls }, 'metrics synced');
  return { updated, rowsChanged, completed, stuckLaunches, calls: read.calls, backedOff: read.backedOff };
}

/** Reads the campaigns' insights from their platforms, leaving alone a platform that asked for a pause. */
async function readDelivery(deps: SyncDeps, platformFor: (id: string) => AdPlatform | undefined, due: DueCampaign[]) {
  const { db, logger } = deps;
  const insights = new Map<number, CampaignInsights>();
  let calls = 0;
  const backedOff: string[] = [];
  if (!due.length) return { insights, calls, backedOff };
  const blocked = new Set<string>(
    (await db('adPlatformUsage').where('blockedUntil', '>', db.fn.now()).select('platform')).map((r: { platform: string }) => r.platform),
  );
  const groups = new Map<string, { platform: AdPlatform; campaigns: DueCampaign[] }>();
  for (const c of due) {
    const platform = platformFor(c.facebookCampaignId);
    if (!platform) continue;
    if (blocked.has(platform.name)) {
      if (!backedOff.includes(platform.name)) backedOff.push(platform.name);
      continue;
    }
    const group = groups.get(platform.name) ?? { platform, campaigns: [] };
    group.campaigns.push(c);
    groups.set(platform.name, group);
  }
  for (const { platform, campaigns } of groups.values()) {
    try {
      const result = await platform.getInsights(campaigns.map((c) => ({ platformCampaignId: c.facebookCampaignId, since: c.startsAt ?? c.createdAt })));
      calls += result.calls;
      const byPlatformId = new Map(campaigns.map((c) => [c.facebookCampaignId, c.id]));
      for (const [pid, data] of result.campaigns) {
        const id = byPlatformId.get(pid);
        if (id !== undefined) insights.set(id, data);
      }
      if (result.usagePercent !== undefined || result.backOffSeconds !== undefined) {
        await recordUsage(db, platform.name, result.usagePercent ?? 0, result.backOffSeconds);
        if (result.backOffSeconds !== undefined) backedOff.push(platform.name);
      }
    } catch (err) {
      // Down or refusing: keep what we have; the next pass tries again.
      logger.warn({ provider: platform.name, err: (err as Error).message, transient: err instanceof AdPlatformError ? err.transient : undefined }, 'delivery read failed; next pass retries');
    }
  }
  return { insights, calls, backedOff };
}

async function recordUsage(db: Db, platform: string, usagePercent: number, backOffSeconds: number | undefined) {
  await db('adPlatformUsage')
    .insert({
      platform,
      usagePercent: Math.min(999, Math.round(usagePercent)),
      blockedUntil: backOffSeconds !== undefined ? new Date(Date.now() + backOffSeconds * 1000) : null,
      updatedAt: db.fn.now(),
    })
    .onConflict('platform')
    .merge();
}

/**
 * Daily rows and lifetime totals, one statement per batch. A daily row is written only when one of its
 * figures changed (so a re-read that changes nothing leaves every row as it was); the campaign's totals
 * and metrics_updated_at (when it was last read) always.
 */
async function writeDelivery(db: Db, due: DueCampaign[], insights: Map<number, CampaignInsights>): Promise<number> {
  let changed = 0;
  const ids = due.map((c) => c.id).filter((id) => insights.has(id));
  for (let i = 0; i < ids.length; i += WRITE_BATCH) {
    const batch = ids.slice(i, i + WRITE_BATCH);
    const totals = batch.map((id) => ({ id, ...insights.get(id)!.lifetime }));
    const days = batch.flatMap((id) => insights.get(id)!.days.map((d) => ({ id, ...d })));
    const { rows } = await db.raw<{ rows: { changed: number }[] }>(
      `with totals as (
         update campaigns c
            set impressions_delivered = t.impressions, reach = t.reach, clicks = t.clicks, link_clicks = t.link_clicks,
                spend_cents = t.spend_cents, metrics_updated_at = now(), updated_at = now()
           from jsonb_to_recordset(?::jsonb) as t(id int, impressions int, reach int, clicks int, link_clicks int, spend_cents int)
          where c.id = t.id and c.status in ('active', 'completed') and c.settled_at is null
         returning c.id),
       upserted as (
         insert into campaign_daily_metrics as m (campaign_id, day, impressions, reach, clicks, link_clicks, spend_cents, ctr, frequency)
         select d.id, d.day, d.impressions, d.reach, d.clicks, d.link_clicks, d.spend_cents, d.ctr, d.frequency
           from jsonb_to_recordset(?::jsonb) as d(id int, day date, impressions int, reach int, clicks int, link_clicks int, spend_cents int, ctr numeric, frequency numeric)
          where d.id in (select id from totals)
         on conflict (campaign_id, day) do update
           set impressions = excluded.impressions, reach = excluded.reach, clicks = excluded.clicks, link_clicks = excluded.link_clicks,
               spend_cents = excluded.spend_cents, ctr = excluded.ctr, frequency = excluded.frequency, updated_at = now()
           where (m.impressions, m.reach, m.clicks, m.link_clicks, m.spend_cents, m.ctr, m.frequency)
                 is distinct from (excluded.impressions, excluded.reach, excluded.clicks, excluded.link_clicks, excluded.spend_cents, excluded.ctr, excluded.frequency)
         returning 1)
       select (select count(*) from upserted)::int as changed`,
      [
        JSON.stringify(totals.map((t) => ({ id: t.id, impressions: t.impressions, reach: t.reach, clicks: t.clicks, link_clicks: t.linkClicks, spend_cents: t.spendCents }))),
        JSON.stringify(
          days.map((d) => ({
            id: d.id,
            day: d.day,
            impressions: d.impressions,
            reach: d.reach,
            clicks: d.clicks,
            link_clicks: d.linkClicks,
            spend_cents: d.spendCents,
            ctr: d.ctr,
            frequency: d.frequency,
          })),
        ),
      ],
    );
    changed += rows[0]?.changed ?? 0;
  }
  return changed;
}

/**
 * Flight end: active campaigns whose goal is reached, or whose flight is over and was read after its end (or
 * ended a day ago whatever happened), are stopped at the platform, read one last time, and completed. A stop
 * the platform refuses now (down, throttled) is tried again next pass.
 */
async function endFlights(deps: SyncDeps, platformFor: (id: string) => AdPlatform | undefined, log: Logger): Promise<number[]> {
  const { db, config } = deps;
  const day = scaledMs(config, 86_400_000);
  const candidates: { id: number; facebookCampaignId: string; goalMet: boolean }[] = await db('campaigns')
    .where({ status: 'active' })
    .whereNotNull('facebookCampaignId')
    .where((q) =>
      q
        .whereRaw('impressions_delivered >= impressions_requested')
        .orWhere((w) => w.where('endsAt', '<=', db.fn.now()).where((x) => x.whereRaw('metrics_updated_at >= ends_at').orWhere('endsAt', '<=', new Date(Date.now() - day)))),
    )
    .orderBy('id')
    .limit(MAX_PER_PASS)
    .select('id', 'facebookCampaignId', db.raw('impressions_delivered >= impressions_requested as goal_met'));
  if (!candidates.length) return [];
  return endCampaigns(deps, platformFor, candidates.map((c) => ({ id: c.id, facebookCampaignId: c.facebookCampaignId, reason: c.goalMet ? 'goal reached' : 'flight over' })), log);
}

/** Stop at the platform, read the final figures, complete. Returns the campaigns that moved to completed. */
export async function endCampaigns(
  deps: SyncDeps,
  platformFor: (id: string) => AdPlatform | undefined,
  campaigns: { id: number; facebookCampaignId: string; reason: string }[],
  log: Logger,
): Promise<number[]> {
  const { db } = deps;
  const stopped: typeof campaigns = [];
  const STOP_CONCURRENCY = 8;
  const queue = [...campaigns];
  await Promise.all(
    Array.from({ length: Math.min(STOP_CONCURRENCY, queue.length) }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const platform = platformFor(c.facebookCampaignId);
        if (!platform) continue;
        try {
          await platform.stop(c.facebookCampaignId);
          stopped.push(c);
        } catch (err) {
          log.warn({ campaignId: c.id, err: (err as Error).message }, 'stop at the ad platform failed; next pass retries');
        }
      }
    }),
  );
  if (!stopped.length) return [];
  // The figures as of the stop.
  const rows: DueCampaign[] = await db('campaigns').whereIn('id', stopped.map((c) => c.id)).select('id', 'facebookCampaignId', 'status', 'startsAt', 'createdAt');
  const read = await readDelivery({ ...deps, force: true }, platformFor, rows);
  await writeDelivery(db, rows, read.insights);
  const ids: number[] = [];
  for (const reason of new Set(stopped.map((c) => c.reason))) {
    const group = stopped.filter((c) => c.reason === reason).map((c) => c.id);
    ids.push(
      ...(await db.transaction(async (trx) => {
        const moved = await transitionCampaignsWhere(trx, 'active', 'completed', reason, { sql: `c.id = any(?::int[])`, bindings: [group as never] });
        if (moved.length) {
          await trx('campaigns').whereIn('id', moved).update({ endedAt: trx.fn.now(), endReason: reason });
          await trx('adSets').whereIn('campaignId', moved).update({ status: 'completed' });
          await trx('ads').whereIn('adSetId', trx('adSets').whereIn('campaignId', moved).select('id')).update({ status: 'completed' });
        }
        return moved;
      })),
    );
  }
  return ids.sort((a, b) => a - b);
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
    const queued = openJobExists(LAUNCH_JOB_NAME, 'campaignId', 'c.id::text');
    for (const from of ['paid', 'launching'] as const) {
      ids.push(
        ...(await transitionCampaignsWhere(trx, from, 'launch_failed', STUCK_REASON, {
          sql: `c.status_changed_at < now() - interval '10 minutes'
                and (c.launch_lease_until is null or c.launch_lease_until < now())
                and not ${queued.sql}`,
          bindings: queued.bindings,
        })),
      );
    }
    if (ids.length) await trx('campaigns').whereIn('id', ids).update({ launchError: STUCK_REASON, launchLeaseJob: null, launchLeaseUntil: null });
    return ids;
  });
}

import type { Knex } from 'knex';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import { scaledMs } from '../../platform/jobs/scaled-schedule';
import { conflict, notFound } from '../../platform/errors';
import { endCampaigns } from './metrics/sync-metrics';
import { adPlatformForCampaignId, type AdPlatform } from './providers';

/**
 * What the reports module may read and do about campaigns (DESIGN §7: settlement and reports reach
 * campaigns through this door): the ended campaigns waiting for settlement, the mark that settles them (in
 * the settlement's transaction), the delivery figures and daily rows of a report, the campaigns past half
 * their flight, and stopping a campaign now (a listing gone pending or withdrawn: autopilot).
 */

/** After a campaign ends, its numbers are read on for this long (late figures) before it is settled. */
export const SETTLE_DELAY_MS = 60 * 60_000;

/** A campaign as its report and its settlement see it. */
export interface CampaignDelivery {
  id: number;
  agentId: number;
  listingId: number;
  status: string;
  budgetCents: number;
  impressionsRequested: number;
  impressionsDelivered: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  headline: string | null;
  primaryText: string | null;
  imageUrl: string | null;
  carouselImages: string[];
  adFormat: string;
  mlsListingId: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  endedAt: Date | null;
  endReason: string | null;
  settledAt: Date | null;
}

const COLUMNS = [
  'id', 'agentId', 'listingId', 'status', 'budgetCents', 'impressionsRequested', 'impressionsDelivered', 'reach', 'clicks', 'linkClicks',
  'headline', 'description', 'imageUrl', 'carouselImages', 'adFormat', 'mlsListingId', 'startsAt', 'endsAt', 'endedAt', 'endReason', 'settledAt',
];

function toDelivery(r: Record<string, any>): CampaignDelivery {
  const { description, carouselImages, ...rest } = r;
  return { ...rest, primaryText: description ?? null, carouselImages: Array.isArray(carouselImages) ? carouselImages : [] } as CampaignDelivery;
}

/** Ended campaigns (completed, read for SETTLE_DELAY_MS since) not settled yet, oldest first. */
export async function campaignsToSettle({ db, config }: { db: Db; config: Config }, limit: number): Promise<CampaignDelivery[]> {
  const rows = await db('campaigns')
    .where({ status: 'completed' })
    .whereNull('settledAt')
    .where((q) => q.whereNull('endedAt').orWhere('endedAt', '<=', new Date(Date.now() - scaledMs(config, SETTLE_DELAY_MS))))
    .orderBy('id')
    .limit(limit)
    .select(COLUMNS);
  return rows.map(toDelivery);
}

/** Marks campaigns settled, in the settlement's transaction; returns those this call marked (each once). */
export async function markCampaignsSettled(trx: Knex.Transaction, campaignIds: number[]): Promise<number[]> {
  if (!campaignIds.length) return [];
  const rows = await trx('campaigns').whereIn('id', campaignIds).where({ status: 'completed' }).whereNull('settledAt').update({ settledAt: trx.fn.now() }).returning('id');
  return rows.map((r: { id: number }) => r.id);
}

export async function findCampaignDeliveries(campaignIds: number[], db: Db | Knex.Transaction): Promise<Map<number, CampaignDelivery>> {
  const out = new Map<number, CampaignDelivery>();
  if (!campaignIds.length) return out;
  for (const r of await db('campaigns').whereIn('id', campaignIds).select(COLUMNS)) out.set(r.id, toDelivery(r));
  return out;
}

/** Active campaigns with id > afterId that passed half their flight or half their impressions. */
export async function campaignsPastHalfway({ db }: { db: Db }, afterId: number, limit: number): Promise<CampaignDelivery[]> {
  const rows = await db('campaigns')
    .where({ status: 'active' })
    .where('id', '>', afterId)
    .whereNotNull('startsAt')
    .where((q) => q.whereRaw('impressions_delivered * 2 >= impressions_requested').orWhereRaw('now() >= starts_at + (ends_at - starts_at) / 2'))
    .orderBy('id')
    .limit(limit)
    .select(COLUMNS);
  return rows.map(toDelivery);
}

/** A campaign's daily rows (the platform's days), for its report's chart. */
export async function campaignDailyRows(db: Db, campaignIds: number[]): Promise<Map<number, { day: string; impressions: number; clicks: number; reach: number }[]>> {
  const out = new Map<number, { day: string; impressions: number; clicks: number; reach: number }[]>();
  if (!campaignIds.length) return out;
  const rows = await db('campaignDailyMetrics')
    .whereIn('campaignId', campaignIds)
    .orderBy(['campaignId', 'day'])
    .select('campaignId', db.raw('day::text as day'), 'impressions', 'clicks', 'reach');
  for (const r of rows) out.set(r.campaignId, [...(out.get(r.campaignId) ?? []), { day: r.day, impressions: r.impressions, clicks: r.clicks, reach: r.reach }]);
  return out;
}

/**
 * Stop a running campaign now, for a reason outside its flight (its listing went pending or was withdrawn):
 * stopped at the ad platform, its final figures read, completed with `reason` as its end reason. The
 * reports module then settles it like any ended campaign: a credit for the part not delivered. A campaign
 * that already ended is left as it is (`ended: false`); one that never ran is refused.
 */
export async function stopCampaignNow(
  deps: { db: Db; config: Config; logger: Logger; platformFor?: (id: string) => AdPlatform | undefined },
  campaignId: number,
  reason: string,
): Promise<{ ended: boolean; status: string }> {
  const { db, config, logger } = deps;
  const c = await db('campaigns').where({ id: campaignId }).first('id', 'status', 'facebookCampaignId');
  if (!c) throw notFound('campaign');
  if (c.status === 'completed') return { ended: false, status: c.status };
  if (c.status !== 'active' || !c.facebookCampaignId) {
    throw conflict('campaigns.not_running', 'Only a running campaign can be stopped and settled', { campaignStatus: c.status });
  }
  const platformFor = deps.platformFor ?? ((id: string) => adPlatformForCampaignId(id, { db, config, logger }));
  const moved = await endCampaigns({ db, config, logger }, platformFor, [{ id: c.id, facebookCampaignId: c.facebookCampaignId, reason }], logger);
  const now = await db('campaigns').where({ id: campaignId }).first('status');
  if (!moved.length && now.status !== 'completed') throw conflict('campaigns.stop_failed', 'The ad platform did not stop the campaign; try again in a moment');
  return { ended: moved.length > 0, status: now.status };
}

/** An agent's running and ended campaigns (those with a report), newest first. */
export async function findAgentCampaignDeliveries(db: Db, agentId: number, limit = 100): Promise<CampaignDelivery[]> {
  const rows = await db('campaigns').where({ agentId }).whereIn('status', ['active', 'completed']).orderBy('id', 'desc').limit(limit).select(COLUMNS);
  return rows.map(toDelivery);
}

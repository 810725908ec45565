import type { PgBoss } from 'pg-boss';
import type { Db } from '../../platform/db/knex';
import { bossDbFor } from '../../platform/jobs/queue';
import { conflict, notFound } from '../../platform/errors';
import { transitionCampaign } from './campaign-transitions';
import { LAUNCH_JOB_NAME } from './jobs/launch-campaign.job';

/**
 * What operators see and do about campaigns: the admin dashboard (through the admin module) and the
 * ops CLI (`npm run ops -- campaigns …`) call these same functions.
 */

export interface AdminCampaignRow {
  id: number;
  agentId: number;
  status: string;
  headline: string | null;
  mlsListingId: string | null;
  impressionsRequested: number;
  impressionsDelivered: number;
  clicks: number;
  createdAt: Date;
}

/** Every campaign of these agents, newest first (the admin table shows the first 2 and "+N more"). */
export async function campaignsOfAgents({ db }: { db: Db }, agentIds: number[]): Promise<AdminCampaignRow[]> {
  if (agentIds.length === 0) return [];
  return db('campaigns')
    .whereIn('agentId', agentIds)
    .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select('id', 'agentId', 'status', 'headline', 'mlsListingId', 'impressionsRequested', 'impressionsDelivered', 'clicks', 'createdAt');
}

/** Spec §3 "Admin metrics per campaign" from the stored delivery (campaigns.sync-metrics writes it). */
export async function campaignMetrics({ db }: { db: Db }, opts: { campaignIds?: number[]; limit: number }): Promise<{ campaignId: number; impressions: number; clicks: number }[]> {
  const q = db('campaigns').select('id', 'impressionsDelivered', 'clicks');
  if (opts.campaignIds) q.whereIn('id', opts.campaignIds);
  else q.whereNotNull('facebookCampaignId').orderBy('id', 'desc');
  const rows = await q.limit(opts.limit);
  return rows.map((r: { id: number; impressionsDelivered: number; clicks: number }) => ({ campaignId: r.id, impressions: r.impressionsDelivered, clicks: r.clicks }));
}

export interface FailedLaunch {
  campaignId: number;
  agentId: number;
  headline: string | null;
  error: string | null;
  attempts: number;
  failedAt: Date;
}

/** Campaigns whose launch failed (status launch_failed), newest failure first. */
export async function listFailedLaunches({ db }: { db: Db }, limit = 50): Promise<FailedLaunch[]> {
  const rows = await db('campaigns')
    .where({ status: 'launch_failed' })
    .orderBy('statusChangedAt', 'desc')
    .limit(limit)
    .select('id', 'agentId', 'headline', 'launchError', 'launchAttempts', 'statusChangedAt');
  return rows.map((r: Record<string, any>) => ({
    campaignId: r.id,
    agentId: r.agentId,
    headline: r.headline,
    error: r.launchError,
    attempts: r.launchAttempts,
    failedAt: r.statusChangedAt,
  }));
}

/**
 * Launch a launch_failed campaign again: launch_failed → paid and a new campaigns.launch job, in one
 * transaction (the launch resumes from the platform ids already recorded, so nothing is created twice).
 */
export async function relaunchCampaign({ db, boss }: { db: Db; boss: PgBoss }, campaignId: number, reason = 'relaunched by ops'): Promise<{ campaignId: number; jobId: string | null }> {
  return db.transaction(async (trx) => {
    const campaign = await trx('campaigns').where({ id: campaignId }).first('id', 'status');
    if (!campaign) throw notFound('campaign');
    const moved = await transitionCampaign(trx, campaignId, ['launch_failed'], 'paid', reason);
    if (!moved) throw conflict('campaigns.not_launch_failed', 'Only a campaign whose launch failed can be relaunched', { campaignStatus: campaign.status });
    const jobId = await boss.send(LAUNCH_JOB_NAME, { campaignId }, { db: await bossDbFor(trx) } as never);
    return { campaignId, jobId };
  });
}

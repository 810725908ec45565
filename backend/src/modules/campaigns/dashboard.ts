import Router from '@koa/router';
import { z } from 'zod';
import {
  DEFAULT_IMPRESSION_GOAL,
  PAID_STATUSES,
  agentCampaignsSchema,
  dailyDeliveryListSchema,
  facebookMetricsSchema,
  idParam,
  type AgentCampaign,
  type DailyDelivery,
  type FacebookMetrics,
} from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import { actorOf } from '../../platform/auth/actor';
import { defineRoutes, route } from '../../platform/http/route';
import type { AppDeps } from '../../platform/deps';
import type { ReadCaches } from '../../platform/cache/read-cache';
import { CachedJson, sendJson } from '../../platform/http/compression';
import { assertAgentAccess } from '../agents';
import { findListingCards } from '../listings';
import { Campaign } from './campaign.model';

/**
 * The agent dashboard's reads (spec 001 §2 Dashboard, §7): the agent's campaigns and their Facebook
 * metrics. Both are the campaigns the agent paid for (PAID_STATUSES: drafts and checkouts in progress are
 * the wizard's). They are the signed-in agent's (DESIGN §3): checked from the cached agent facts first (404
 * unknown or someone else's, 403 sign in for a wizard browser).
 */

/** How far back the chart goes. */
export const DAILY_SERIES_DAYS = 90;

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

export async function listAgentCampaigns({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number): Promise<AgentCampaign[]> {
  // All of the agent's campaigns, whoever paid for them: the signed-in agent's (DESIGN §3).
  await assertAgentAccess({ caches }, actor, agentId, 'signed_in');
  const rows = await Campaign.query()
    .where('agentId', agentId)
    .whereIn('status', PAID_STATUSES as string[])
    .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select(
      'id', 'listingId', 'status', 'templateType', 'adFormat', 'headline', 'description', 'imageUrl', 'budgetCents',
      'impressionsRequested', 'impressionsDelivered', 'clicks', 'reach', 'startsAt', 'endsAt', 'metricsUpdatedAt', 'createdAt',
    );
  if (!rows.length) return [];
  const listings = await findListingCards(rows.map((r) => r.listingId));
  return rows.map((c) => ({
    id: c.id,
    listingId: c.listingId,
    status: c.status,
    templateType: c.templateType,
    adFormat: c.adFormat,
    headline: c.headline ?? null,
    description: c.description ?? null,
    imageUrl: c.imageUrl ?? null,
    price: String(Math.round(c.budgetCents / 100)),
    impressionsRequested: c.impressionsRequested,
    impressionsDelivered: c.impressionsDelivered,
    clicks: c.clicks,
    reach: c.reach,
    startsAt: iso(c.startsAt),
    endsAt: iso(c.endsAt),
    metricsUpdatedAt: iso(c.metricsUpdatedAt),
    createdAt: iso(c.createdAt)!,
    listing: listings.get(c.listingId) ?? null,
  })) as AgentCampaign[];
}

interface MetricsRow {
  totalImpressions: number;
  ordered: number;
  totalClicks: number;
  reach: number;
  updatedAt: Date | null;
}

const paidCampaigns = (agentId: number) => Campaign.query().where('agentId', agentId).whereIn('status', PAID_STATUSES as string[]);

/** Totals over the agent's paid campaigns (spec §3 Facebook metrics). */
async function readAgentFacebookMetrics(agentId: number): Promise<FacebookMetrics> {
  const knex = Campaign.knex();
  const row = (await paidCampaigns(agentId)
    .select(
      knex.raw('coalesce(sum(impressions_delivered), 0)::int as total_impressions'),
      knex.raw('coalesce(sum(impressions_requested), 0)::int as ordered'),
      knex.raw('coalesce(sum(clicks), 0)::int as total_clicks'),
      knex.raw('coalesce(sum(reach), 0)::int as reach'),
      knex.raw('max(metrics_updated_at) as updated_at'),
    )
    .first()) as unknown as MetricsRow;
  return {
    totalImpressions: row.totalImpressions,
    impressionGoal: row.ordered > 0 ? row.ordered : DEFAULT_IMPRESSION_GOAL,
    totalClicks: row.totalClicks,
    reach: row.reach,
    // Neither the sandbox nor our Meta insights read reports engagements: the dashboard shows the spec's estimate.
    engagements: null,
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * The daily series of the agent's paid campaigns over the last DAILY_SERIES_DAYS days: the ad platform's own
 * daily rows (campaigns.sync-metrics), as delivered on each day.
 */
async function readAgentDailyDelivery(agentId: number): Promise<DailyDelivery[]> {
  const knex = Campaign.knex();
  const paidIds = paidCampaigns(agentId).select('id').toKnexQuery().toSQL();
  const { rows } = await knex.raw<{ rows: { daily: DailyDelivery[] }[] }>(
    `select coalesce(json_agg(json_build_object('campaignId', d.campaign_id, 'day', d.day::text, 'impressions', d.impressions, 'clicks', d.clicks)
                              order by d.day, d.campaign_id), '[]'::json) as daily
       from campaign_daily_metrics d
      where d.campaign_id in (${paidIds.sql})
        and d.day >= (now() at time zone 'UTC')::date - ?::int`,
    [...paidIds.bindings, DAILY_SERIES_DAYS],
  );
  return rows[0]?.daily ?? [];
}

/**
 * GET /api/agents/:id/facebook-metrics as the JSON sent. The metrics sync writes a few times an hour, so the
 * answer is held a few seconds in the read cache (emptied at once by this process's writes to campaigns or
 * their daily rows); the access rule comes from the cached agent facts.
 */
export async function agentFacebookMetricsJson({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number): Promise<CachedJson> {
  await assertAgentAccess({ caches }, actor, agentId, 'signed_in');
  return caches
    .named<CachedJson>('agent-facebook-metrics', ['campaigns'])
    .get(String(agentId), async () => new CachedJson(JSON.stringify(await readAgentFacebookMetrics(agentId))));
}

/** GET /api/agents/:id/facebook-metrics/daily as the JSON sent: the chart's data, read with the chart's code. */
export async function agentDailyDeliveryJson({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number): Promise<CachedJson> {
  await assertAgentAccess({ caches }, actor, agentId, 'signed_in');
  return caches
    .named<CachedJson>('agent-daily-delivery', ['campaigns', 'campaign_daily_metrics'])
    .get(String(agentId), async () => new CachedJson(JSON.stringify(await readAgentDailyDelivery(agentId))));
}

const id = z.object({ id: idParam });

export const dashboardRoutes = defineRoutes({
  campaigns: {
    method: 'get', path: '/api/agents/:id/campaigns', auth: 'agent', tag: 'campaigns', summary: "The agent's paid campaigns, newest first, with delivery and the promoted listing",
    params: id, ok: { 200: agentCampaignsSchema }, errors: [403, 404],
  },
  metrics: {
    method: 'get', path: '/api/agents/:id/facebook-metrics', auth: 'agent', tag: 'campaigns', summary: "The agent's Facebook metrics over its paid campaigns",
    params: id, ok: { 200: facebookMetricsSchema }, errors: [403, 404],
  },
  daily: {
    method: 'get', path: '/api/agents/:id/facebook-metrics/daily', auth: 'agent', tag: 'campaigns', summary: 'Impressions and clicks delivered per day and campaign, the last 90 days (the dashboard chart)',
    params: id, ok: { 200: dailyDeliveryListSchema }, errors: [403, 404],
  },
});

/** GET /api/agents/:id/campaigns, /api/agents/:id/facebook-metrics and its daily series. */
export function dashboardRouter({ caches }: AppDeps): Router {
  const router = new Router();

  route(router, dashboardRoutes.campaigns, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listAgentCampaigns({ caches }, actorOf(ctx), params.id);
  });

  route(router, dashboardRoutes.metrics, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, await agentFacebookMetricsJson({ caches }, actorOf(ctx), params.id));
  });

  route(router, dashboardRoutes.daily, async (ctx, { params }) => {
    ctx.set('Cache-Control', 'no-store');
    await sendJson(ctx, await agentDailyDeliveryJson({ caches }, actorOf(ctx), params.id));
  });

  return router;
}

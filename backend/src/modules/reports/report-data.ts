import type { PublicAgent, ReportDay, ReportFigures } from '@app/contracts';
import type { Db } from '../../platform/db/knex';
import { campaignDailyRows, findCampaignDeliveries, type CampaignDelivery } from '../campaigns';
import { findListingCards, type ListingCard } from '../listings';
import { findPublicAgent } from '../agents';
import { countLeadsInWindows } from '../leads';
import { listingPageViews } from '../listing-pages';

/**
 * A campaign's report, from the other modules' doors: the delivery and daily rows (campaigns), the listing
 * (listings), the agent's branding (agents), listing-page views (listing-pages) and leads as counts (leads).
 * Never a buyer's name or contact.
 */
export interface CampaignReport {
  campaign: CampaignDelivery;
  listing: ListingCard | null;
  agent: PublicAgent | null;
  figures: ReportFigures;
  daily: ReportDay[];
}

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Figures of campaigns as of now (or their end), for many at once: three queries whatever their number. */
export async function figuresFor(db: Db, campaigns: CampaignDelivery[], listings: Map<number, ListingCard>): Promise<Map<number, ReportFigures>> {
  const windows = campaigns.map((c) => {
    const from = c.startsAt ?? new Date();
    const to = c.endedAt ?? (c.endsAt && c.endsAt < new Date() ? c.endsAt : new Date());
    return { c, from, to };
  });
  const [views, leads] = await Promise.all([
    listingPageViews(
      db,
      windows
        .filter((w) => listings.get(w.c.listingId))
        .map((w) => ({ key: w.c.id, mlsId: listings.get(w.c.listingId)!.mlsId, fromDay: dayOf(w.from), toDay: dayOf(new Date(Math.max(w.to.getTime(), w.from.getTime()))) })),
    ),
    countLeadsInWindows(db, windows.map((w) => ({ key: w.c.id, listingId: w.c.listingId, from: w.from, to: new Date(w.to.getTime() + 1) }))),
  ]);
  const out = new Map<number, ReportFigures>();
  for (const { c } of windows) {
    out.set(c.id, {
      promised: c.impressionsRequested,
      delivered: c.impressionsDelivered,
      reach: c.reach,
      clicks: c.clicks,
      ctrPercent: c.impressionsDelivered ? Math.round((c.clicks / c.impressionsDelivered) * 10_000) / 100 : 0,
      frequency: c.reach ? Math.round((c.impressionsDelivered / c.reach) * 100) / 100 : 0,
      listingPageViews: views.get(c.id) ?? 0,
      leads: leads.get(c.id) ?? 0,
    });
  }
  return out;
}

/** The whole report of one campaign (PDF, seller page, dashboard). */
export async function loadCampaignReport(db: Db, campaignId: number): Promise<CampaignReport | undefined> {
  const campaign = (await findCampaignDeliveries([campaignId], db)).get(campaignId);
  if (!campaign) return undefined;
  const [listings, agent, daily] = await Promise.all([findListingCards([campaign.listingId]), findPublicAgent(campaign.agentId), campaignDailyRows(db, [campaignId])]);
  const figures = (await figuresFor(db, [campaign], listings)).get(campaignId)!;
  return {
    campaign,
    listing: listings.get(campaign.listingId) ?? null,
    agent: agent ?? null,
    figures,
    daily: (daily.get(campaignId) ?? []).map((d) => ({ day: d.day, impressions: d.impressions, clicks: d.clicks })),
  };
}

export function listingAddress(l: ListingCard | null | undefined): string | null {
  if (!l) return null;
  return [l.address, l.city, l.state].filter(Boolean).join(', ');
}

/** Flight progress in percent (0–100) at `now`. */
export function flightPercent(c: Pick<CampaignDelivery, 'startsAt' | 'endsAt'>, now = Date.now()): number {
  if (!c.startsAt || !c.endsAt) return 0;
  const span = c.endsAt.getTime() - c.startsAt.getTime();
  return span > 0 ? Math.max(0, Math.min(100, Math.round(((now - c.startsAt.getTime()) / span) * 100))) : 100;
}

export { DAY };

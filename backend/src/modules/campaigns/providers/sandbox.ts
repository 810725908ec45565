import crypto from 'node:crypto';
import type { Db } from '../../../platform/db/knex';
import type { AdPlatform, AdSetSpec, AdSpec, CampaignInsights, CampaignSpec, CreativeSpec, DailyInsight, InsightsRequest, InsightsResult } from './ad-platform';

/**
 * The embedded ad platform (no account, no network). It records each campaign, its one ad set and
 * its one ad in sandbox_ad_campaigns, and each creative with all its cards in sandbox_ad_creatives
 * (its own tables: it stands for a system outside ours), and delivers over the campaign's flight like a
 * real platform, deterministically from the elapsed time (see sandboxInsights), under-delivering for a
 * configurable share of campaigns (SANDBOX_UNDERDELIVERY_RATE). Creating by name is idempotent, like a
 * lookup before a create.
 */
export class SandboxAdPlatform implements AdPlatform {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
    private readonly options: SandboxOptions = { timeScale: 1, underdeliveryRate: 0 },
  ) {}

  async findCampaign(name: string) {
    const row = await this.db('sandboxAdCampaigns').where({ name }).first('id');
    return row?.id as string | undefined;
  }

  async createCampaign(spec: CampaignSpec): Promise<string> {
    await this.db('sandboxAdCampaigns')
      .insert({
        id: sandboxId('cmp'),
        name: spec.name,
        objective: 'OUTCOME_AWARENESS',
        specialAdCategories: JSON.stringify(spec.specialAdCategories),
        country: spec.country,
        impressionsGoal: spec.impressionsGoal,
      })
      .onConflict('name')
      .ignore();
    return (await this.findCampaign(spec.name))!;
  }

  async findAdSet(name: string, platformCampaignId: string) {
    const row = await this.db('sandboxAdCampaigns').where({ id: platformCampaignId, adSetName: name }).first('adSetId');
    return (row?.adSetId as string | null | undefined) ?? undefined;
  }

  async createAdSet(spec: AdSetSpec): Promise<string> {
    const [row] = await this.db('sandboxAdCampaigns')
      .where({ id: spec.platformCampaignId })
      .update({
        adSetId: this.db.raw('coalesce(ad_set_id, ?)', [sandboxId('adset')]),
        adSetName: spec.name,
        dailyBudgetCents: spec.dailyBudgetCents,
        startsAt: spec.startTime,
        endsAt: spec.endTime,
        targeting: JSON.stringify(spec.targeting),
      })
      .returning('adSetId');
    if (!row) throw new Error(`sandbox: no campaign ${spec.platformCampaignId}`);
    return row.adSetId as string;
  }

  /** Keeps the creative as Meta would: the copy and every card (a carousel's 2–10 images, in order). */
  async createCreative(spec: CreativeSpec): Promise<string> {
    const id = sandboxId('cre');
    const cards = spec.images.map((imageUrl) => ({ imageUrl, headline: spec.headline, description: spec.description, link: spec.link }));
    await this.db('sandboxAdCreatives').insert({
      id,
      name: spec.name,
      format: spec.format,
      primaryText: spec.primaryText,
      headline: spec.headline,
      description: spec.description,
      link: spec.link,
      callToAction: spec.callToAction,
      cards: JSON.stringify(cards),
    });
    return id;
  }

  async findAd(name: string, platformAdSetId: string) {
    const row = await this.db('sandboxAdCampaigns').where({ adSetId: platformAdSetId, adName: name }).first('adId', 'creativeId');
    return row?.adId ? { id: row.adId as string, creativeId: (row.creativeId as string | null) ?? undefined } : undefined;
  }

  async createAd(spec: AdSpec): Promise<string> {
    const [row] = await this.db('sandboxAdCampaigns')
      .where({ adSetId: spec.platformAdSetId })
      .update({ adId: this.db.raw('coalesce(ad_id, ?)', [sandboxId('ad')]), adName: spec.name, creativeId: spec.creativeId })
      .returning('adId');
    if (!row) throw new Error(`sandbox: no ad set ${spec.platformAdSetId}`);
    return row.adId as string;
  }

  async getInsights(campaigns: InsightsRequest[]): Promise<InsightsResult> {
    const out = new Map<string, CampaignInsights>();
    if (!campaigns.length) return { campaigns: out, calls: 0 };
    const rows = await this.db('sandboxAdCampaigns')
      .whereIn('id', campaigns.map((c) => c.platformCampaignId))
      .select('id', 'impressionsGoal', 'startsAt', 'endsAt', 'stoppedAt', 'adId', 'dailyBudgetCents');
    const now = this.clock();
    for (const r of rows) {
      if (!r.adId || !r.startsAt || !r.endsAt) continue;
      out.set(
        r.id,
        sandboxInsights(
          { id: r.id, impressionsGoal: r.impressionsGoal, startsAt: r.startsAt, endsAt: r.endsAt, stoppedAt: r.stoppedAt, dailyBudgetCents: r.dailyBudgetCents ?? 0 },
          now,
          this.options,
        ),
      );
    }
    return { campaigns: out, calls: 1 };
  }

  async stop(platformCampaignId: string): Promise<void> {
    await this.db('sandboxAdCampaigns').where({ id: platformCampaignId }).whereNull('stoppedAt').update({ stoppedAt: this.clock() });
  }
}

export function sandboxId(kind: 'cmp' | 'adset' | 'cre' | 'ad'): string {
  return `sbx_${kind}_${crypto.randomBytes(8).toString('hex')}`;
}

export interface SandboxOptions {
  /** CAMPAIGN_TIME_SCALE: a flight day lasts this share of a real day (the rows still carry calendar days). */
  timeScale: number;
  /** SANDBOX_UNDERDELIVERY_RATE: the share of campaigns that deliver less than their goal. */
  underdeliveryRate: number;
}

const DAY_MS = 86_400_000;

/** A stable number in [0, 1) per campaign and purpose: the same campaign always gets the same draw. */
function seeded(id: string, salt: string): number {
  return crypto.createHash('sha256').update(`${salt}:${id}`).digest().readUInt32BE(0) / 2 ** 32;
}

export interface SandboxCampaign {
  id: string;
  impressionsGoal: number;
  startsAt: Date;
  endsAt: Date;
  stoppedAt?: Date | null;
  dailyBudgetCents: number;
}

/**
 * Does this campaign under-deliver, and what share of its goal does it reach by the end of its flight?
 * Decided per campaign from its id, so the same campaign always behaves the same: a rate of 0 or 1 lets a
 * test choose. Under-delivering campaigns reach 55–95 % of the goal; the others pace to 102 % over the
 * flight, so the goal is met a little before the end (then the sync stops them).
 */
export function sandboxDeliveryShare(id: string, underdeliveryRate: number): number {
  const under = seeded(id, 'under') < underdeliveryRate;
  return under ? 0.55 + 0.4 * seeded(id, 'under-share') : 1.02;
}

/**
 * Delivery of a sandbox campaign at `now`, like a real platform's Insights: paced over the flight (a slower
 * first day or two while the auction learns), noise from day to day, a click-through rate around 1 %
 * (0.7–1.3 % per campaign, ±20 % a day), reach that grows slower than impressions (lifetime frequency ends
 * between 1.4 and 1.7), spend in step with impressions. Deterministic: the same campaign and clock give the
 * same numbers, lifetime figures never go down, and the daily rows add up to the lifetime impressions and
 * clicks. Nothing is delivered after the flight's end or a stop.
 */
export function sandboxInsights(c: SandboxCampaign, now: Date, opts: SandboxOptions): CampaignInsights {
  const dayMs = DAY_MS * opts.timeScale;
  const span = c.endsAt.getTime() - c.startsAt.getTime();
  const days = Math.max(1, Math.round(span / dayMs));
  const until = Math.min(now.getTime(), c.endsAt.getTime(), c.stoppedAt ? c.stoppedAt.getTime() : Infinity);
  const elapsed = Math.max(0, until - c.startsAt.getTime());
  const total = c.impressionsGoal * sandboxDeliveryShare(c.id, opts.underdeliveryRate);

  const weights = Array.from({ length: days }, (_, d) => (d === 0 ? 0.5 : d === 1 ? 0.8 : 1) * (0.8 + 0.4 * seeded(c.id, `day:${d}`)));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  // Cumulative impressions at a point of the flight (ms from its start), linear within a day.
  const cumulative = (ms: number) => {
    const k = Math.min(days, Math.floor(ms / (span / days)));
    const frac = k >= days ? 0 : ms / (span / days) - k;
    let w = 0;
    for (let d = 0; d < k; d++) w += weights[d];
    if (k < days) w += frac * weights[k];
    return Math.floor((total * w) / weightSum);
  };

  const baseCtr = 0.007 + 0.006 * seeded(c.id, 'ctr');
  const costPerImpression = (c.dailyBudgetCents * days) / c.impressionsGoal;
  const startDay = Date.UTC(c.startsAt.getUTCFullYear(), c.startsAt.getUTCMonth(), c.startsAt.getUTCDate());
  const out: DailyInsight[] = [];
  const dayLength = span / days;
  for (let d = 0; d < days && d * dayLength < elapsed; d++) {
    const impressions = cumulative(Math.min(elapsed, (d + 1) * dayLength)) - cumulative(d * dayLength);
    const ctr = baseCtr * (0.8 + 0.4 * seeded(c.id, `ctr:${d}`));
    const clicks = Math.round(impressions * ctr);
    const reach = Math.min(impressions, Math.round(impressions / (1.08 + 0.14 * seeded(c.id, `freq:${d}`))));
    out.push({
      day: new Date(startDay + d * DAY_MS).toISOString().slice(0, 10),
      impressions,
      reach,
      clicks,
      linkClicks: Math.floor(clicks * 0.8),
      spendCents: Math.round(impressions * costPerImpression),
      ctr: impressions ? Math.round((clicks / impressions) * 1e6) / 1e4 : null,
      frequency: reach ? Math.round((impressions / reach) * 1e4) / 1e4 : null,
    });
  }
  const impressions = out.reduce((a, r) => a + r.impressions, 0);
  const f = Math.min(1, elapsed / span);
  const endRatio = 0.6 + 0.1 * seeded(c.id, 'reach');
  const maxDaily = out.reduce((a, r) => Math.max(a, r.reach), 0);
  const reach = Math.min(impressions, Math.max(maxDaily, Math.round(impressions * (0.9 - (0.9 - endRatio) * f))));
  return {
    lifetime: {
      impressions,
      reach,
      clicks: out.reduce((a, r) => a + r.clicks, 0),
      linkClicks: out.reduce((a, r) => a + r.linkClicks, 0),
      spendCents: out.reduce((a, r) => a + r.spendCents, 0),
    },
    days: out,
  };
}

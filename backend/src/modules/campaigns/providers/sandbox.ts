import crypto from 'node:crypto';
import { reachRange } from '@app/contracts';
import type { Db } from '../../../platform/db/knex';
import type { AdPlatform, AdSetSpec, AdSpec, CampaignSpec, CreativeSpec, Delivery } from './ad-platform';

/**
 * The embedded ad platform (no account, no network). It records each campaign, its one ad set and
 * its one ad in sandbox_ad_campaigns (its own table: it stands for a system outside ours) and
 * delivers exactly the impressions paid for over the campaign's timeframe, deterministically from
 * the elapsed time (see sandboxDelivery), less the time it spent paused. Creating by name is idempotent, like a lookup before a create.
 */
export class SandboxAdPlatform implements AdPlatform {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
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

  async createCreative(spec: CreativeSpec): Promise<string> {
    // The sandbox keeps no creatives of its own: our ads row holds the copy and images it was made from.
    void spec;
    return sandboxId('cre');
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

  async getDelivery(platformCampaignIds: string[]): Promise<Map<string, Delivery>> {
    const out = new Map<string, Delivery>();
    if (!platformCampaignIds.length) return out;
    const rows = await this.db('sandboxAdCampaigns')
      .whereIn('id', platformCampaignIds)
      .select('id', 'impressionsGoal', 'startsAt', 'endsAt', 'adId', 'pausedAt', 'pausedSeconds');
    const now = this.clock();
    for (const r of rows) {
      // Paused time delivers nothing: the campaign's clock stops while it is paused.
      const pausedMs = (r.pausedSeconds ?? 0) * 1000 + (r.pausedAt ? Math.max(0, now.getTime() - new Date(r.pausedAt).getTime()) : 0);
      const at = new Date(now.getTime() - pausedMs);
      out.set(r.id, r.adId && r.startsAt && r.endsAt ? sandboxDelivery({ id: r.id, impressionsGoal: r.impressionsGoal, startsAt: r.startsAt, endsAt: r.endsAt }, at) : ZERO);
    }
    return out;
  }

  async pauseCampaign(platformCampaignId: string): Promise<void> {
    const found = await this.db('sandboxAdCampaigns')
      .where({ id: platformCampaignId })
      .update({ pausedAt: this.db.raw('coalesce(paused_at, ?)', [this.clock()]) });
    if (!found) throw new Error(`sandbox: no campaign ${platformCampaignId}`);
  }

  async resumeCampaign(platformCampaignId: string): Promise<void> {
    const now = this.clock();
    const found = await this.db('sandboxAdCampaigns')
      .where({ id: platformCampaignId })
      .update({
        pausedSeconds: this.db.raw('paused_seconds + coalesce(greatest(0, extract(epoch from (?::timestamptz - paused_at)))::int, 0)', [now]),
        pausedAt: null,
      });
    if (!found) throw new Error(`sandbox: no campaign ${platformCampaignId}`);
  }
}

const ZERO: Delivery = { impressions: 0, reach: 0, clicks: 0 };

export function sandboxId(kind: 'cmp' | 'adset' | 'cre' | 'ad'): string {
  return `sbx_${kind}_${crypto.randomBytes(8).toString('hex')}`;
}

/** The first tenth of the timeframe ramps up (delivery picks up speed as the auction learns). */
const RAMP = 0.1;

/** Share of the goal delivered after a fraction f of the timeframe: quadratic ease-in over RAMP, then linear; 0 → 0, 1 → 1. */
export function deliveredShare(f: number): number {
  const x = Math.min(1, Math.max(0, f));
  const raw = x < RAMP ? (x * x) / (2 * RAMP) : x - RAMP / 2;
  return raw / (1 - RAMP / 2);
}

/** A stable number in [0, 1) per campaign: each sandbox campaign gets its own reach and click rates, the same on every read. */
function seeded(id: string, salt: string): number {
  return crypto.createHash('sha256').update(`${salt}:${id}`).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Delivery of a sandbox campaign at `now`: impressions = goal × deliveredShare(elapsed fraction),
 * reach within the contracts' 60–70 % of impressions, clicks at 0.9–1.5 % of impressions. No
 * randomness between reads: the same campaign and clock give the same numbers, and they never go down.
 */
export function sandboxDelivery(c: { id: string; impressionsGoal: number; startsAt: Date; endsAt: Date }, now: Date): Delivery {
  const span = c.endsAt.getTime() - c.startsAt.getTime();
  const f = span > 0 ? (now.getTime() - c.startsAt.getTime()) / span : 1;
  const impressions = Math.floor(c.impressionsGoal * deliveredShare(f));
  const range = reachRange(impressions);
  const reach = Math.floor(range.min + (range.max - range.min) * seeded(c.id, 'reach'));
  const clickRate = 0.009 + 0.006 * seeded(c.id, 'ctr');
  const clicks = Math.floor(impressions * clickRate);
  return { impressions, reach, clicks };
}

import { shortfallCreditCents } from '@app/contracts';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import type { Queue } from '../../platform/jobs/queue';
import { campaignsToSettle, findCampaignDeliveries, markCampaignsSettled, stopCampaignNow, type CampaignDelivery } from '../campaigns';
import { grantCredits } from '../payments';
import { findListingCards } from '../listings';
import { notifyCampaignReports, type CampaignReportEmail } from '../notifications';
import { figuresFor, listingAddress } from './report-data';
import { publicOrigin, ReportLinks, sellerUrl } from './report-links';

export interface SettleDeps {
  db: Db;
  config: Config;
  logger: Logger;
  queue: Pick<Queue, 'send' | 'sendMany'>;
}

export interface Settled {
  campaignId: number;
  creditCents: number;
}

/** Campaigns settled per transaction. */
export const SETTLE_BATCH = 500;

/**
 * Settles ended campaigns (campaigns door: completed, their late figures read), SETTLE_BATCH per transaction,
 * until none is left or `maxBatches` ran. Each campaign once, whatever runs at the same time or again:
 * campaign_settlements' primary key decides who settles it; only that transaction marks the campaign settled,
 * grants its credit (payments: one per campaign), makes its seller link and sends its final report email
 * (notifications: one per campaign and kind).
 */
export async function settleEndedCampaigns(deps: SettleDeps, opts: { maxBatches?: number } = {}): Promise<Settled[]> {
  const out: Settled[] = [];
  for (let i = 0; i < (opts.maxBatches ?? 20); i++) {
    const batch = await campaignsToSettle(deps, SETTLE_BATCH);
    if (!batch.length) break;
    out.push(...(await settleCampaigns(deps, batch)));
    if (batch.length < SETTLE_BATCH) break;
  }
  if (out.length) deps.logger.info({ settled: out.length, credited: out.filter((s) => s.creditCents > 0).length }, 'reports: campaigns settled');
  return out;
}

/** Settles these ended campaigns in one transaction (those another run settled first are skipped). */
export async function settleCampaigns(deps: SettleDeps, campaigns: CampaignDelivery[]): Promise<Settled[]> {
  const { db, config, queue } = deps;
  const ended = campaigns.filter((c) => c.status === 'completed' && !c.settledAt && c.budgetCents > 0 && c.impressionsRequested > 0);
  if (!ended.length) return [];
  const listings = await findListingCards(ended.map((c) => c.listingId));
  const figures = await figuresFor(db, ended, listings);
  const links = ReportLinks.fromConfig(config);
  const origin = publicOrigin(config);
  const credit = new Map(ended.map((c) => [c.id, shortfallCreditCents(c.budgetCents, c.impressionsRequested, c.impressionsDelivered)]));

  return db.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: { campaign_id: number }[] }>(
      `insert into campaign_settlements (campaign_id, agent_id, promised, delivered, price_cents, credit_cents, end_reason)
       select * from unnest(?::int[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[], ?::text[])
       on conflict (campaign_id) do nothing
       returning campaign_id`,
      [
        ended.map((c) => c.id),
        ended.map((c) => c.agentId),
        ended.map((c) => c.impressionsRequested),
        ended.map((c) => c.impressionsDelivered),
        ended.map((c) => c.budgetCents),
        ended.map((c) => credit.get(c.id)!),
        ended.map((c) => c.endReason),
      ] as never,
    );
    const mine = new Set(await markCampaignsSettled(trx, rows.map((r) => r.campaign_id)));
    const settled = ended.filter((c) => mine.has(c.id));
    if (!settled.length) return [];
    const granted = await grantCredits(
      trx,
      queue,
      settled
        .filter((c) => credit.get(c.id)! > 0)
        .map((c) => ({ campaignId: c.id, agentId: c.agentId, amountCents: credit.get(c.id)!, priceCents: c.budgetCents, promised: c.impressionsRequested, delivered: c.impressionsDelivered })),
    );
    const method = new Map(granted.map((g) => [g.campaignId, g.method]));
    await links.create(trx, settled.map((c) => ({ campaignId: c.id, agentId: c.agentId })));
    const tokens = await links.liveTokens(trx, settled.map((c) => c.id));
    const emails: CampaignReportEmail[] = settled.map((c) => ({
      kind: 'final',
      campaignId: c.id,
      agentId: c.agentId,
      listingAddress: listingAddress(listings.get(c.listingId)),
      figures: figures.get(c.id)!,
      credit: method.has(c.id) ? { amountCents: credit.get(c.id)!, method: method.get(c.id)! } : null,
      sellerUrl: tokens.has(c.id) ? sellerUrl(origin, tokens.get(c.id)!) : undefined,
      pdfPath: `/api/agents/${c.agentId}/reports/${c.id}/pdf`,
    }));
    await notifyCampaignReports({ queue }, trx, emails);
    return settled.map((c) => ({ campaignId: c.id, creditCents: credit.get(c.id)! }));
  });
}

/**
 * Stop a running campaign now and settle it at once, for the part not delivered (DESIGN §7; autopilot calls
 * this when a campaign's listing goes pending or is withdrawn). Stopped at the ad platform and read one last
 * time (campaigns door), then settled like any ended campaign: the credit, the final report and its email,
 * the seller link. Calling it again, or for a campaign that already ended, settles it once at most.
 */
export async function settleCampaignNow(deps: SettleDeps, campaignId: number, reason: string): Promise<Settled | undefined> {
  await stopCampaignNow(deps, campaignId, reason);
  const c = (await findCampaignDeliveries([campaignId], deps.db)).get(campaignId);
  if (!c) return undefined;
  const [settled] = await settleCampaigns(deps, [c]);
  return settled;
}

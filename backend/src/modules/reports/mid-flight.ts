import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import type { Logger } from '../../platform/logger';
import { campaignsPastHalfway } from '../campaigns';
import { findListingCards } from '../listings';
import { notifyCampaignReports } from '../notifications';
import { figuresFor, flightPercent, listingAddress } from './report-data';

const PAGE = 1000;

/**
 * The mid-flight reports: each running campaign that passed half its flight or half its impressions gets one
 * email with the figures so far and its pace against the goal. Once per campaign (report_mid_flight's key,
 * written in the email's transaction, and notifications' own (campaign, kind) key).
 */
export async function sendMidFlightReports(deps: { db: Db; queue: Pick<Queue, 'send' | 'sendMany'>; logger: Logger }): Promise<number[]> {
  const { db, queue } = deps;
  const sent: number[] = [];
  for (let after = 0; ; ) {
    const page = await campaignsPastHalfway({ db }, after, PAGE);
    if (!page.length) break;
    after = page[page.length - 1].id;
    const done = new Set((await db('reportMidFlight').whereIn('campaignId', page.map((c) => c.id)).select('campaignId')).map((r: { campaignId: number }) => r.campaignId));
    const due = page.filter((c) => !done.has(c.id));
    if (due.length) {
      const listings = await findListingCards(due.map((c) => c.listingId));
      const figures = await figuresFor(db, due, listings);
      const ids = await db.transaction(async (trx) => {
        const mine: number[] = (await trx('reportMidFlight').insert(due.map((c) => ({ campaignId: c.id }))).onConflict('campaignId').ignore().returning('campaignId')).map(
          (r: { campaignId: number }) => r.campaignId,
        );
        const set = new Set(mine);
        await notifyCampaignReports(
          { queue },
          trx,
          due
            .filter((c) => set.has(c.id))
            .map((c) => {
              const f = figures.get(c.id)!;
              const flight = flightPercent(c);
              const delivered = Math.floor((f.delivered * 100) / f.promised);
              return { kind: 'mid_flight' as const, campaignId: c.id, agentId: c.agentId, listingAddress: listingAddress(listings.get(c.listingId)), figures: f, pace: { flightPercent: flight, deliveredPercent: delivered, onTrack: delivered >= flight - 5 } };
            }),
        );
        return mine;
      });
      sent.push(...ids);
    }
    if (page.length < PAGE) break;
  }
  if (sent.length) deps.logger.info({ campaigns: sent.length }, 'reports: mid-flight reports sent');
  return sent;
}

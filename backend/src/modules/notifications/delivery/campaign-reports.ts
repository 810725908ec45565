import type { Knex } from 'knex';
import type { Queue } from '../../../platform/jobs/queue';
import type { CampaignReportEmail } from '../emails/report-templates';
import { createMessages } from './deliver-message';

export type { CampaignReportEmail };

/**
 * Called by the reports module in the transaction that records a report: the agent's report emails (the
 * mid-flight report; the final report with the credit, the seller link and the PDF), through the same email
 * path as every agent email. Each kind once per campaign whatever the retries (the (campaign, kind) unique
 * key makes a repeat a no-op). Returns the campaigns whose email was created now.
 */
export async function notifyCampaignReports(deps: { queue: Pick<Queue, 'sendMany'> }, trx: Knex.Transaction, reports: readonly CampaignReportEmail[]): Promise<number[]> {
  const rows = await createMessages(
    deps.queue,
    trx,
    reports.map((r) => ({ agentId: r.agentId, campaignId: r.campaignId, kind: r.kind === 'final' ? ('report.final' as const) : ('report.mid_flight' as const), channel: 'email' as const, payload: r })),
  );
  return rows.map((r) => Number(r.campaignId));
}

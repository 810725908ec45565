import type { Db } from '../src/platform/db/knex';
import { OPEN_JOB_STATES } from '../src/platform/jobs/job-table';
import { launchCampaignJob } from '../src/modules/campaigns';

export interface LaunchJob {
  state: string;
  /** Still to run (created, retrying or active). */
  open: boolean;
  singletonKey: string | null;
  data: { campaignId: number };
}

/** The launch jobs pg-boss holds for one campaign (in `queue`: campaigns.launch, or its dead-letter queue), oldest first. */
export async function launchJobs(db: Db, campaignId: number, queue: string = launchCampaignJob.name): Promise<LaunchJob[]> {
  const { rows } = await db.raw<{ rows: { state: string; singleton_key: string | null; data: { campaignId: number } }[] }>(
    `select state, singleton_key, data from pgboss.job where name = ? and data->>'campaignId' = ? order by created_on, id`,
    [queue, String(campaignId)],
  );
  return rows.map((r) => ({ state: r.state, open: (OPEN_JOB_STATES as readonly string[]).includes(r.state), singletonKey: r.singleton_key, data: r.data }));
}

/** How many launch jobs a campaign has (only those still to run, with `open`). */
export async function launchJobCount(db: Db, campaignId: number, opts: { open?: boolean; queue?: string } = {}): Promise<number> {
  const jobs = await launchJobs(db, campaignId, opts.queue);
  return opts.open ? jobs.filter((j) => j.open).length : jobs.length;
}

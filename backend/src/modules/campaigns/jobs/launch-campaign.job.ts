import { z } from 'zod';
import { defineJob, type JobDefinition, type JobQueueOptions } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { launchCampaign } from '../launch/launch-campaign';
import { createAdPlatform } from '../providers';

export const LAUNCH_JOB_NAME = 'campaigns.launch';

export const launchPayload = z.object({ campaignId: z.number().int().positive() });
export type LaunchPayload = z.infer<typeof launchPayload>;

type LaunchQueueOptions = JobQueueOptions;

/**
 * Retries with backoff: 5 s, 10 s, 20 s, 40 s, 60 s (about 2¼ minutes) cover Meta's short rate-limit
 * windows and brief outages; after the last one the campaign is launch_failed and the job is in
 * campaigns.launch.dead, where `npm run ops -- jobs redrive campaigns.launch` picks it up again.
 */
export const LAUNCH_QUEUE_OPTIONS: LaunchQueueOptions = {
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 60,
  expireInSeconds: 120,
  heartbeatSeconds: 10,
  deadLetter: deadLetterName(LAUNCH_JOB_NAME),
};

/**
 * The launch job with other queue options (tests use short retry delays). The handler has to know
 * the retry limit: on the last attempt it marks the campaign launch_failed before giving up.
 */
export function defineLaunchJob(options: LaunchQueueOptions = LAUNCH_QUEUE_OPTIONS): JobDefinition<LaunchPayload> {
  return defineJob({
    name: LAUNCH_JOB_NAME,
    payload: launchPayload,
    options,
    // A launch holds a lease, not a connection, while it waits on the ad platform (about half a second of
    // Graph calls), so many run at once without starving the pool. Payments arrive one after another: four
    // workers of 5 each take a launch as it comes instead of letting it wait for a running batch to finish.
    batchSize: 5,
    localConcurrency: 4,
    async handler({ campaignId }, ctx) {
      const platform = createAdPlatform({ config: ctx.config, db: ctx.db, logger: ctx.logger, signal: ctx.signal });
      await launchCampaign(
        { db: ctx.db, config: ctx.config, logger: ctx.logger, platform, queue: ctx.queue },
        campaignId,
        { jobId: ctx.jobId, retryCount: ctx.retryCount, retryLimit: options.retryLimit },
      );
    },
  });
}

/**
 * campaigns.launch {campaignId}: paid → launching → active, creating the campaign, ad set, creative
 * and ad on the ad platform. Sent by markCampaignPaid in the payment's transaction. Idempotent and
 * crash-safe: see launch/launch-campaign.ts.
 */
export const launchCampaignJob = defineLaunchJob();

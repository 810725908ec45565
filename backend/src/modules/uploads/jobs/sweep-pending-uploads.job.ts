import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { createUploadStorages } from '../providers';
import { VariantCache } from '../variants';
import { sweepPendingUploads, sweepUnreferencedUploads } from '../uploads.service';
import { agentObjectPathsInUse } from '../../agents';
import { listingObjectPathsInUse } from '../../listings';
import { campaignObjectPathsInUse } from '../../campaigns';

/** Object paths some listing, campaign or agent still shows (asked through each module's door). */
async function objectPathsInUse(paths: string[]): Promise<Set<string>> {
  const sets = await Promise.all([listingObjectPathsInUse(paths), campaignObjectPathsInUse(paths), agentObjectPathsInUse(paths)]);
  return new Set(sets.flatMap((s) => [...s]));
}

const NAME = 'uploads.sweep-pending';

/**
 * Pending uploads whose URL expired an hour ago: GCS objects nobody ever displayed are verified (and
 * deleted when oversized or not images), rows of uploads that never arrived are removed. Stored uploads
 * that no listing, campaign or agent uses 24 hours after their upload are removed too.
 * Idempotent: every step is conditional on the row's status.
 */
export const sweepPendingUploadsJob = defineJob({
  name: NAME,
  payload: z.object({}).passthrough(),
  options: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 600, deadLetter: deadLetterName(NAME) },
  schedule: '*/30 * * * *',
  batchSize: 1,
  async handler(_payload, { db, logger, config }) {
    const storages = createUploadStorages(config, logger, { quiet: true });
    const deps = { db, logger, storages, variants: new VariantCache(config.DATA_DIR), quotaBytes: config.UPLOAD_QUOTA_BYTES };
    const counts = await sweepPendingUploads(deps);
    if (counts.removed || counts.stored || counts.rejected) logger.info(counts, 'pending uploads swept');
    const unused = await sweepUnreferencedUploads(deps, objectPathsInUse);
    if (unused.removed) logger.info(unused, 'unused uploads swept');
  },
});

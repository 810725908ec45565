import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { createUploadStorages } from '../providers';
import { VariantCache } from '../variants';
import { sweepPendingUploads } from '../uploads.service';

const NAME = 'uploads.sweep-pending';

/**
 * Pending uploads whose URL expired an hour ago: GCS objects nobody ever displayed are verified (and
 * deleted when oversized or not images), rows of uploads that never arrived are removed.
 * Idempotent: every step is conditional on the row still being pending.
 */
export const sweepPendingUploadsJob = defineJob({
  name: NAME,
  payload: z.object({}).passthrough(),
  options: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 600, deadLetter: deadLetterName(NAME) },
  schedule: '*/30 * * * *',
  batchSize: 1,
  async handler(_payload, { db, logger, config }) {
    const storages = createUploadStorages(config, logger, { quiet: true });
    const counts = await sweepPendingUploads({ db, logger, storages, variants: new VariantCache(config.DATA_DIR) });
    if (counts.removed || counts.stored || counts.rejected) logger.info(counts, 'pending uploads swept');
  },
});

import { z } from 'zod';
import { defineJob } from '../jobs/job';
import { deadLetterName } from '../jobs/queue';

/** Expired sessions are dead weight in the table; delete them hourly (idempotent: a rerun deletes nothing new). */
export const purgeExpiredSessionsJob = defineJob({
  name: 'platform.purge-expired-sessions',
  payload: z.object({}).passthrough(),
  options: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 300, deadLetter: deadLetterName('platform.purge-expired-sessions') },
  schedule: '17 * * * *',
  batchSize: 1,
  async handler(_payload, { db, logger }) {
    const deleted = await db('sessions').where('expiresAt', '<', db.fn.now()).delete();
    if (deleted) logger.info({ deleted }, 'expired sessions purged');
    // Rate-limit counts whose window ended an hour ago (expire is epoch ms).
    await db('rate_limits').where('expire', '<', Date.now() - 3_600_000).delete();
  },
});

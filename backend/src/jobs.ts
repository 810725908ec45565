import type { JobDefinition } from './platform/jobs/job';
import { purgeExpiredSessionsJob } from './platform/http/purge-sessions.job';
import { sweepPendingUploadsJob } from './modules/uploads';
import { launchCampaignJob, syncMetricsJob } from './modules/campaigns';
import { deliverJob, sendDigestsJob } from './modules/notifications';
import { sendSignInLinksJob, sendVerificationEmailJob } from './modules/agents';
import { refundCreditJob } from './modules/payments';
import { reportsSweepJob } from './modules/reports';

/**
 * Every background job of the product, in one place: the place to read what background work exists.
 * A job's name is a public contract (the ops CLI and queued rows refer to it): never rename one.
 */
export const jobs: JobDefinition<any>[] = [purgeExpiredSessionsJob, sweepPendingUploadsJob, launchCampaignJob, syncMetricsJob, deliverJob, sendDigestsJob, sendVerificationEmailJob, sendSignInLinksJob, refundCreditJob, reportsSweepJob];

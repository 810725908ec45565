// The uploads module's only door. Other modules use these, never the files behind them.
export { uploadsRouter } from './uploads.routes';
export { toObjectPath } from './object-paths';
export { moveAgentUploads } from './uploads.service';
/** Not yet in backend/src/jobs.ts (outside this module): add it there to schedule the sweep. */
export { sweepPendingUploadsJob } from './jobs/sweep-pending-uploads.job';

// The uploads module's only door. Other modules use these, never the files behind them.
import type { RouteSpec } from '../../platform/http/route';
import { uploadsRoutes } from './uploads.routes';
export { uploadsRouter } from './uploads.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const uploadsRouteSpecs: RouteSpec[] = Object.values(uploadsRoutes);
export { toObjectPath } from './object-paths';
export { moveAgentUploads } from './uploads.service';
/** Not yet in backend/src/jobs.ts (outside this module): add it there to schedule the sweep. */
export { sweepPendingUploadsJob } from './jobs/sweep-pending-uploads.job';

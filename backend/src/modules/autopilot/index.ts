// The autopilot module's only door (DESIGN §7): listens to the mls module's listing events, and reaches
// campaigns, payments, mls and notifications through their doors only.
import type { RouteSpec } from '../../platform/http/route';
import { autopilotRoutes } from './autopilot.routes';
export { autopilotRouter } from './autopilot.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const autopilotRouteSpecs: RouteSpec[] = Object.values(autopilotRoutes);
export { autopilotDeps, type AutopilotDeps } from './deps';
// Operators (ops CLI, admin dashboard).
export { listRuns, autopilotStatesForAdmin } from './ops';
export { sweep as runDue, skipRun } from './launch';
export { presentRuns } from './runs';
// Background work of this module (registered in backend/src/jobs.ts).
export { listingEventsJob } from './jobs/listing-events.job';
export { handleEventJob } from './jobs/handle-event.job';
export { launchDueJob } from './jobs/launch-due.job';
export { sweepJob } from './jobs/sweep.job';

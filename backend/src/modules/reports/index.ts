// The reports module's only door (DESIGN §7): settlement of the delivery guarantee and the reports (emails,
// PDF, seller link). It reaches campaigns, payments, listings, agents, leads, listing-pages and notifications
// through their doors.
import type { RouteSpec } from '../../platform/http/route';
import { reportsRoutes } from './reports.routes';
export { reportsRouter, reportPagesRouter } from './reports.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const reportsRouteSpecs: RouteSpec[] = Object.values(reportsRoutes);
export { reportsSweepJob } from './jobs/reports-sweep.job';
// Stop a running campaign and settle it now, for the part not delivered (autopilot: a listing gone pending or withdrawn).
export { settleCampaignNow, settleEndedCampaigns, type Settled, type SettleDeps } from './settlement';
export { sendMidFlightReports } from './mid-flight';

// The reports module's only door (DESIGN §7): settlement of the delivery guarantee and the reports (emails,
// PDF, seller link). It reaches campaigns, payments, listings, agents, leads, listing-pages and notifications
// through their doors.
export { reportsRouter, reportPagesRouter } from './reports.routes';
export { reportsSweepJob } from './jobs/reports-sweep.job';
// Stop a running campaign and settle it now, for the part not delivered (autopilot: a listing gone pending or withdrawn).
export { settleCampaignNow, settleEndedCampaigns, type Settled, type SettleDeps } from './settlement';
export { sendMidFlightReports } from './mid-flight';

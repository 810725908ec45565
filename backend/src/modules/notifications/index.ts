// The notifications module's only door: lead delivery (email, signed webhook, Zapier, CRM), the agent's
// notification settings, the delivery log, and the emails that tell agents what happened. The email
// transport itself (SMTP or the .eml outbox) is platform/email.
import type { RouteSpec } from '../../platform/http/route';
import { notificationsRoutes } from './notifications.routes';
import { publicApiRoutes } from './public-api/public-api.routes';
import { smsRoutes } from './sms/sms.routes';
import { lionDeskRoutes } from './crm-oauth/liondesk.routes';
export { notificationsRouter } from './notifications.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const notificationsRouteSpecs: RouteSpec[] = [notificationsRoutes, lionDeskRoutes, publicApiRoutes, smsRoutes].flatMap((r) => Object.values<RouteSpec>(r));
// Twilio's inbound webhook: signed by Twilio (X-Twilio-Signature), so the app exempts it from the CSRF check.
export { TWILIO_SMS_WEBHOOK_PATH } from './sms/sms.routes';

// Called by the leads module for the leads it stores: prepared before their transaction, written in it.
export { prepareLeadHandover, enqueueLeadDeliveries, type LeadHandover, type LeadForDelivery } from './delivery/lead-deliveries';
// Called by the campaigns module inside the transaction that makes a campaign active.
export { notifyCampaignLive, type CampaignLiveSnapshot } from './delivery/campaign-live';
// Called by the autopilot module inside the transactions that change its runs; its links' purpose, which it verifies.
export { notifyAutopilot, AUTOPILOT_LINK_PURPOSE, type AutopilotNotice, type AutopilotAdSnapshot, type AutopilotPaymentProblem, type AutopilotDeliveryStopped, type AutopilotResumeOffer } from './delivery/autopilot-notices';

// Called by the reports module in the transaction that records a report: the report emails, once per campaign and kind.
export { notifyCampaignReports, type CampaignReportEmail } from './delivery/campaign-reports';

// What the agent has wired up (no secrets), for the help module's answers.
export { integrationState, type IntegrationState } from './settings/integration-state';

// The delivery log for operators (ops CLI, admin).
export { listDeliveries, replayDelivery } from './delivery/deliveries.service';

// The agents module's identity hooks: an address verified (what waited for it goes), an agent merged.
export { releaseWaitingEmails } from './delivery/deliver-message';
export { moveAgentNotifications } from './delivery/agent-identity';

// Background work of this module (registered in backend/src/jobs.ts).
export { deliverJob } from './delivery/deliver-message';
export { sendDigestsJob } from './jobs/send-digests.job';

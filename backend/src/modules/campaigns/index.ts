// The campaigns module's only door. Other modules use these, never the files behind them.
import type Router from '@koa/router';
import type { AppDeps } from '../../platform/deps';
import type { RouteSpec } from '../../platform/http/route';
import { campaignsRouter, campaignsRoutes } from './campaigns.routes';
import { adCopyRouter, adCopyRoutes } from './ad-copy/ad-copy.routes';
import { targetingRouter, targetingRoutes } from './targeting/targeting.routes';
import { publicCampaignRouter, publicCampaignRoutes } from './public-campaign';
import { dashboardRouter, dashboardRoutes } from './dashboard';

/** Drafts (POST/GET/PATCH /api/campaigns), ad copy and the Fair Housing check, the targeting preview, the dashboard's reads. */
export function campaignsRouters(deps: AppDeps): Router[] {
  return [campaignsRouter(deps), adCopyRouter(deps), targetingRouter(deps), publicCampaignRouter(deps), dashboardRouter(deps)];
}

/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const campaignsRouteSpecs: RouteSpec[] = [campaignsRoutes, adCopyRoutes, targetingRoutes, publicCampaignRoutes, dashboardRoutes].flatMap((r) => Object.values<RouteSpec>(r));

export { transitionCampaign } from './campaign-transitions';
export { CAMPAIGN_STATUSES, type CampaignStatus } from './campaign.model';
export { presentCampaign, type CampaignView } from './campaigns.presenter';
export { getAccessibleCampaign, assertCampaignAccess, campaignObjectPathsInUse, moveAgentCampaigns } from './campaigns.service';
export { checkFairHousing, rewriteForFairHousing, type FairHousingFinding } from './fair-housing/fair-housing';

// Payment → launch (DESIGN §2, §3): called by the payments module inside its transaction.
export { markCampaignPaid, markCampaignPendingPayment, getCampaignForPayment, type CampaignForPayment } from './payment-hooks';
// Background work of this module (registered in backend/src/jobs.ts).
export { launchCampaignJob } from './jobs/launch-campaign.job';
export { syncMetricsJob } from './jobs/sync-metrics.job';
// Public listing pages: the public part of the campaign paid for a listing.
export { findPublicCampaign } from './public-campaign';

// Proof of delivery (DESIGN §7): what the reports module reads and does to settle and report campaigns.
export {
  campaignsToSettle,
  markCampaignsSettled,
  findCampaignDeliveries,
  campaignsPastHalfway,
  campaignDailyRows,
  findAgentCampaignDeliveries,
  stopCampaignNow,
  SETTLE_DELAY_MS,
  type CampaignDelivery,
} from './settlement-hooks';
// Image bytes of a listing photo or an ad image (demo photos, our uploads, SSRF-safe URLs): the reports' PDF.
export { loadImageBytes } from './providers/image-source';

// Operators (admin dashboard and ops CLI): campaign details, stored metrics, failed launches, relaunch.
export { campaignsOfAgents, campaignMetrics, listFailedLaunches, relaunchCampaign, type AdminCampaignRow, type FailedLaunch } from './ops';

// Autopilot (DESIGN §7): drafts built as the wizard builds them, skip/expiry, and delivery stopped or resumed by the
// listing's status. guaranteeShortfall is the seam settlement (reports) reads for campaigns the listing stopped.
export {
  buildAutopilotDraft,
  insertAutopilotDraft,
  cancelDraft,
  campaignSummaries,
  liveCampaignsForListing,
  stopDeliveryForListing,
  recordDeliveryStopped,
  pausedCampaignsPastFlight,
  resumeDelivery,
  guaranteeShortfall,
  type AutopilotAdKind,
  type AutopilotDraft,
  type AutopilotDraftContent,
  type AutopilotDraftRequest,
  type CampaignSummary,
  type DeliveryControlOutcome,
} from './autopilot-hooks';

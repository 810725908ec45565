import type Router from '@koa/router';
import type { AppDeps } from '../platform/deps';
import type { RouteSpec } from '../platform/http/route';
import { agentsRouteSpecs, agentsRouter, type IdentityHooks } from './agents';
import { adminRouter, adminRouteSpecs } from './admin';
import { mlsRouter, mlsRouteSpecs } from './mls';
import { listingsRouter, listingsRouteSpecs, moveAgentListings } from './listings';
import { moveAgentUploads, uploadsRouteSpecs, uploadsRouter } from './uploads';
import { campaignsRouteSpecs, campaignsRouters, moveAgentCampaigns } from './campaigns';
import { paymentsRouter, paymentsRouteSpecs } from './payments';
import { leadsRouter, leadsRouteSpecs, moveAgentLeads } from './leads';
import { listingPagesRouter, listingPagesRouteSpecs } from './listing-pages';
import { moveAgentNotifications, notificationsRouteSpecs, notificationsRouter, releaseWaitingEmails } from './notifications';
import { helpRouter, helpRouteSpecs } from './help';
import { autopilotRouter, autopilotRouteSpecs } from './autopilot';
import { reportsRouteSpecs, reportsRouter, reportPagesRouter } from './reports';

/**
 * What the other modules do when an identity changes (DESIGN §3): the agents module is the floor they stand on
 * and imports none of them, so the composition root hands it their parts.
 */
export function identityHooks(deps: Pick<AppDeps, 'queue'>): IdentityHooks {
  return {
    verified: async (trx, agentId) => {
      await releaseWaitingEmails(deps.queue, trx, agentId);
    },
    movers: [moveAgentListings, moveAgentCampaigns, moveAgentLeads, moveAgentNotifications, moveAgentUploads],
  };
}

/** Every module's router that needs the session or a request body, mounted by the app in this order. */
export function moduleRouters(deps: AppDeps): Router[] {
  return [agentsRouter(deps, identityHooks(deps)), adminRouter(deps), uploadsRouter(deps), mlsRouter(deps), listingsRouter(deps), ...campaignsRouters(deps), paymentsRouter(deps), leadsRouter(deps), notificationsRouter(deps), helpRouter(deps), reportsRouter(deps), autopilotRouter(deps)];
}

/**
 * The public pages buyers land on from the ads (listing pages and their share images): they read no
 * session and take no body, so the app mounts them before the session and body layers, like built files.
 */
export function publicPageRouters(deps: AppDeps): Router[] {
  return [listingPagesRouter(deps), reportPagesRouter(deps)];
}

/** Every module's routes as declared beside their handlers (each module's door exports its list): what api-docs.ts documents. */
export function routeSpecs(): RouteSpec[] {
  return [...agentsRouteSpecs, ...adminRouteSpecs, ...mlsRouteSpecs, ...listingsRouteSpecs, ...campaignsRouteSpecs, ...leadsRouteSpecs, ...notificationsRouteSpecs, ...paymentsRouteSpecs, ...helpRouteSpecs, ...autopilotRouteSpecs, ...uploadsRouteSpecs, ...reportsRouteSpecs, ...listingPagesRouteSpecs];
}

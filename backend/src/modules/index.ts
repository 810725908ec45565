import type Router from '@koa/router';
import type { AppDeps } from '../platform/deps';
import type { RouteSpec } from '../platform/http/route';
import { agentsRouter, type IdentityHooks } from './agents';
import { adminRouter } from './admin';
import { mlsRouter } from './mls';
import { listingsRouter, moveAgentListings } from './listings';
import { moveAgentUploads, uploadsRouter } from './uploads';
import { campaignsRouters, moveAgentCampaigns } from './campaigns';
import { paymentsRouter } from './payments';
import { leadsRouter, leadsRoutes, moveAgentLeads } from './leads';
import { listingPagesRouter } from './listing-pages';
import { moveAgentNotifications, notificationsRouter, releaseWaitingEmails } from './notifications';
import { helpRouter } from './help';
import { autopilotRouter } from './autopilot';
import { reportsRouter, reportPagesRouter } from './reports';

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
  return [leadsRoutes].flatMap((routes) => Object.values<RouteSpec>(routes));
}

import type Router from '@koa/router';
import type { AppDeps } from '../platform/deps';
import { agentsRouter } from './agents';
import { adminRouter } from './admin';
import { mlsRouter } from './mls';
import { listingsRouter } from './listings';
import { uploadsRouter } from './uploads';
import { campaignsRouters } from './campaigns';
import { paymentsRouter } from './payments';
import { leadsRouter } from './leads';
import { listingPagesRouter } from './listing-pages';
import { notificationsRouter } from './notifications';
import { helpRouter } from './help';
import { autopilotRouter } from './autopilot';

/** Every module's router that needs the session or a request body, mounted by the app in this order. */
export function moduleRouters(deps: AppDeps): Router[] {
  return [agentsRouter(deps), adminRouter(deps), uploadsRouter(deps), mlsRouter(deps), listingsRouter(deps), ...campaignsRouters(deps), paymentsRouter(deps), leadsRouter(deps), notificationsRouter(deps), helpRouter(deps), autopilotRouter(deps)];
}

/**
 * The public pages buyers land on from the ads (listing pages and their share images): they read no
 * session and take no body, so the app mounts them before the session and body layers, like built files.
 */
export function publicPageRouters(deps: AppDeps): Router[] {
  return [listingPagesRouter(deps)];
}

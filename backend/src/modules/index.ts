import type Router from '@koa/router';
import type { AppDeps } from '../platform/deps';
import { agentsRouter } from './agents';
import { adminRouter } from './admin';

/** Every module's router, mounted by the app in this order. */
export function moduleRouters(deps: AppDeps): Router[] {
  return [agentsRouter(deps), adminRouter(deps)];
}

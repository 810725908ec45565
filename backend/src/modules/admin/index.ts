import type { RouteSpec } from '../../platform/http/route';
import { adminRoutes } from './admin.routes';
export { adminRouter } from './admin.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const adminRouteSpecs: RouteSpec[] = Object.values(adminRoutes);

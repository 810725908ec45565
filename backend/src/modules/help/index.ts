// The help module's only door: the help assistant's route (POST /api/ai-help).
import type { RouteSpec } from '../../platform/http/route';
import { helpRoutes } from './help.routes';
export { helpRouter } from './help.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const helpRouteSpecs: RouteSpec[] = Object.values(helpRoutes);
// The built-in assistant in process, for the benchmark (scripts/bench/help.mjs).
export { answerBuiltin, pickArticle } from './providers/builtin-assistant';

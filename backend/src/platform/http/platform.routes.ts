import { healthSchema, readinessSchema, runtimeConfigSchema } from '@app/contracts';
import { defineRoutes } from './route';

/** The app's own routes (app.ts mounts them before the session layer): probes and the runtime config. */
export const platformRoutes = defineRoutes({
  health: { method: 'get', path: '/api/health', auth: 'public', tag: 'platform', summary: 'The process answers', ok: { 200: healthSchema } },
  ready: { method: 'get', path: '/api/ready', auth: 'public', tag: 'platform', summary: 'The database and the job queue answer', ok: { 200: readinessSchema, 503: readinessSchema } },
  runtimeConfig: { method: 'get', path: '/api/runtime-config', auth: 'public', tag: 'platform', summary: 'Where the remotes live and which providers run', ok: { 200: runtimeConfigSchema } },
});

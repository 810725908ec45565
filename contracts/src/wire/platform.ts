import { z } from 'zod';

/** GET /api/health: the process answers. */
export const healthSchema = z.object({ status: z.literal('ok') });

/** GET /api/ready: the database and the job queue answer (503 with the same body when not). */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.boolean(),
  jobs: z.boolean(),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** GET /api/runtime-config: where the remotes live and which providers run (contracts' RuntimeConfig). */
export const runtimeConfigSchema = z.object({
  remotes: z.object({ dashboard: z.object({ entry: z.string() }), admin: z.object({ entry: z.string() }) }),
  providers: z.record(z.string(), z.string()),
  googleLoginEnabled: z.boolean(),
  stripePublishableKey: z.string().nullable(),
  leadGenerationUrl: z.string(),
});

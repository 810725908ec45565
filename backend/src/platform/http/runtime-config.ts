import type { RuntimeConfig } from '@app/contracts';
import type { Config } from '../config';

/**
 * What the host needs to know at run time: where its remotes live (so the admin team can deploy
 * theirs elsewhere without rebuilding the host) and which providers run.
 */
export function buildRuntimeConfig(config: Config): RuntimeConfig {
  return {
    remotes: {
      dashboard: { entry: config.DASHBOARD_REMOTE_URL ?? '/remotes/dashboard/remoteEntry.js' },
      admin: { entry: config.ADMIN_REMOTE_URL ?? '/remotes/admin/remoteEntry.js' },
    },
    providers: { ...config.providers },
    googleLoginEnabled: config.providers.googleLogin === 'google',
    stripePublishableKey: config.providers.payments === 'stripe' ? config.STRIPE_PUBLISHABLE_KEY ?? null : null,
    leadGenerationUrl: config.LEAD_GENERATION_URL,
  };
}

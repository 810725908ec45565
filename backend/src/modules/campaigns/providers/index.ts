import type { AdPlatform, AdPlatformDeps } from './ad-platform';
import { MetaAdPlatform } from './meta';
import { SandboxAdPlatform } from './sandbox';

// The factory lives here, not in ad-platform.ts, so the interface never imports its implementations
// (meta.ts and sandbox.ts import the interface).
const announced = new Set<string>();

/** The configured ad platform (config.providers.ads): Meta with META_ACCESS_TOKEN, else the sandbox. */
export function createAdPlatform(deps: AdPlatformDeps): AdPlatform {
  return adPlatformNamed(deps.config.providers.ads, deps);
}

/** The platform that holds a given platform campaign id: sandbox ids start with sbx_. */
export function adPlatformForCampaignId(platformCampaignId: string, deps: AdPlatformDeps): AdPlatform | undefined {
  if (platformCampaignId.startsWith('sbx_')) return adPlatformNamed('sandbox', deps);
  return deps.config.providers.ads === 'meta' ? adPlatformNamed('meta', deps) : undefined;
}

function adPlatformNamed(name: 'meta' | 'sandbox', deps: AdPlatformDeps): AdPlatform {
  const platform = name === 'meta' ? MetaAdPlatform.fromConfig(deps) : new SandboxAdPlatform(deps.db, undefined, { timeScale: deps.config.CAMPAIGN_TIME_SCALE, underdeliveryRate: deps.config.SANDBOX_UNDERDELIVERY_RATE });
  if (!announced.has(name)) {
    announced.add(name);
    deps.logger.info(
      name === 'meta'
        ? { provider: 'meta', graph: deps.config.META_GRAPH_URL, version: deps.config.META_API_VERSION, adAccount: deps.config.META_AD_ACCOUNT_ID }
        : { provider: 'sandbox' },
      `ad platform: ${name}`,
    );
  }
  return platform;
}

export { AdPlatformError, type AdPlatform, type AdPlatformDeps, type AdSetSpec, type AdSpec, type AdTargeting, type CampaignSpec, type CreativeSpec, type Delivery, type DailyInsight, type CampaignInsights, type InsightsRequest, type InsightsResult } from './ad-platform';

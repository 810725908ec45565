import type { Config } from '../../../platform/config';
import type { Db } from '../../../platform/db/knex';
import type { Logger } from '../../../platform/logger';

/**
 * The ad platform behind a launch: Meta's Marketing API, or the embedded sandbox. The launch
 * (launch/launch-campaign.ts) drives it one object at a time and records each id as soon as it has
 * it, so every method creates exactly one object and may be retried by a later attempt; the
 * find* methods look an object up by the name we gave it (names carry our campaign id), which covers
 * a crash between the platform's answer and our write.
 */
export interface AdPlatform {
  readonly name: 'meta' | 'sandbox';
  findCampaign(name: string): Promise<string | undefined>;
  createCampaign(spec: CampaignSpec): Promise<string>;
  findAdSet(name: string, platformCampaignId: string): Promise<string | undefined>;
  createAdSet(spec: AdSetSpec): Promise<string>;
  /** Uploads the images and creates the creative. */
  createCreative(spec: CreativeSpec): Promise<string>;
  findAd(name: string, platformAdSetId: string): Promise<{ id: string; creativeId?: string } | undefined>;
  createAd(spec: AdSpec): Promise<string>;
  /**
   * Delivery of each campaign as the platform reports it: its daily rows since `since` (Meta Insights,
   * time_increment=1) and its lifetime totals (date_preset=maximum: lifetime reach is not the sum of daily
   * reach). Campaigns the platform has no data for are absent. A platform close to its rate limit answers
   * with what it has read so far and how long to leave it alone (`backOffSeconds`).
   */
  getInsights(campaigns: InsightsRequest[]): Promise<InsightsResult>;
  /** Stops a campaign's delivery (Meta: status PAUSED). Stopping a stopped campaign is a no-op. */
  stop(platformCampaignId: string): Promise<void>;
}

export interface InsightsRequest {
  platformCampaignId: string;
  /** First day to read daily rows for (the flight's start). */
  since: Date;
}

/** One day of one campaign (the platform's day, YYYY-MM-DD). Counts are that day's, not running totals. */
export interface DailyInsight {
  day: string;
  impressions: number;
  /** People reached that day (not additive across days). */
  reach: number;
  clicks: number;
  /** Clicks on the ad's link (Meta inline_link_clicks). */
  linkClicks: number;
  spendCents: number;
  /** As the platform reports them (percent, and impressions per person); null when it reports none. */
  ctr: number | null;
  frequency: number | null;
}

export interface CampaignInsights {
  lifetime: Delivery & { linkClicks: number; spendCents: number };
  days: DailyInsight[];
}

export interface InsightsResult {
  campaigns: Map<string, CampaignInsights>;
  /** The highest rate-limit usage the platform reported during the read (percent), if it reports one. */
  usagePercent?: number;
  /** Set when the platform is near or at its limit: no calls to it for this long. */
  backOffSeconds?: number;
  /** Calls made (each page is one). */
  calls: number;
}

export interface CampaignSpec {
  name: string;
  /** Housing ads: always ["HOUSING"] in the US (DESIGN §3). */
  specialAdCategories: ['HOUSING'];
  country: 'US';
  /** What the agent paid for; only the sandbox uses it (it delivers exactly this over the timeframe). */
  impressionsGoal: number;
}

export interface AdSetSpec {
  name: string;
  platformCampaignId: string;
  dailyBudgetCents: number;
  startTime: Date;
  endTime: Date;
  targeting: AdTargeting;
}

/** Housing targeting: a place and a radius, interests. Never age, gender or ZIP codes (DESIGN §3). */
export interface AdTargeting {
  location: { latitude: number; longitude: number; radiusMiles: number; label: string } | { address: string; radiusMiles: number; label: string };
  /** Interest names as the ad platform lists them (enabled ones only). */
  interests: string[];
}

export interface CreativeSpec {
  name: string;
  format: 'single' | 'carousel';
  headline: string;
  primaryText: string;
  description: string;
  /** Absolute URL of the listing page the ad links to. */
  link: string;
  /** Call to action as the platform names it, e.g. LEARN_MORE. */
  callToAction: string;
  /** One image (single) or 2–10 (carousel); absolute URLs or our own paths (/demo-mls/photos/…, /objects/uploads/…). */
  images: string[];
}

export interface AdSpec {
  name: string;
  platformAdSetId: string;
  creativeId: string;
}

export interface Delivery {
  impressions: number;
  reach: number;
  clicks: number;
}

/**
 * A provider's refusal or failure. `transient`: worth retrying (rate limit, 5xx, network); otherwise
 * retrying cannot help (invalid parameter, missing configuration) and the launch fails at once.
 */
export class AdPlatformError extends Error {
  override readonly name = 'AdPlatformError';
  constructor(
    message: string,
    readonly transient: boolean,
    readonly details: { status?: number; code?: number; subcode?: number; fbtraceId?: string } = {},
  ) {
    super(message);
  }
}

export interface AdPlatformDeps {
  config: Config;
  db: Db;
  logger: Logger;
  /** Aborts outbound calls (job expiry, worker stop). */
  signal?: AbortSignal;
}

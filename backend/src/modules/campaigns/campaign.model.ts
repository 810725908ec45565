import { Model } from 'objection';
import type { AdFormat, CampaignStatus, RadiusMiles, TargetingInterest, TargetingTemplateId, TemplateType } from '@app/contracts';

// DESIGN §2 lifecycle: the one list lives in contracts (the database's campaigns_status_check is made from it).
export { CAMPAIGN_STATUSES, type CampaignStatus } from '@app/contracts';

/** The targeting step's draft, as stored in campaigns.targeting (jsonb). Only validated values get here. */
export interface StoredTargeting {
  targetingLocation?: { city: string; state: string; radius: RadiusMiles };
  targetingInterests?: TargetingInterest[];
  targetingTemplate?: TargetingTemplateId;
}

export class Campaign extends Model {
  static override tableName = 'campaigns';
  static override jsonAttributes = ['carouselImages', 'targeting'];

  id!: number;
  agentId!: number;
  listingId!: number;
  agentName!: string | null;
  /** The agent's brokerage when the draft was saved: the ad names it (launch-plan.ts). */
  agentBrokerage!: string | null;
  /**
   * SHA-256 of the key of the browser that created the campaign: a wizard browser that is not signed in as the
   * agent reaches the campaigns it created and no others (DESIGN §3). Null for campaigns made before.
   */
  createdByBrowser!: string | null;
  state!: string | null;
  mlsListingId!: string | null;
  templateType!: TemplateType;
  adFormat!: AdFormat;
  headline!: string | null;
  description!: string | null;
  subtitle!: string | null;
  callToAction!: string | null;
  targetAudience!: string | null;
  imageUrl!: string | null;
  carouselImages!: string[];
  link!: string | null;
  targeting!: StoredTargeting;
  budgetCents!: number;
  impressionsRequested!: number;
  status!: CampaignStatus;
  statusChangedAt!: Date;
  stripePaymentIntentId!: string | null;
  facebookCampaignId!: string | null;
  launchError!: string | null;
  launchAttempts!: number;
  /** The job launching it now, and until when (launch/launch-campaign.ts). */
  launchLeaseJob!: string | null;
  launchLeaseUntil!: Date | null;
  startsAt!: Date | null;
  endsAt!: Date | null;
  impressionsDelivered!: number;
  reach!: number;
  clicks!: number;
  metricsUpdatedAt!: Date | null;
  notificationSent!: boolean;
  createdAt!: Date;
  updatedAt!: Date;

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}

import type {
  AdFormat,
  AgentView,
  ListingView,
  MlsAgentMatch,
  RadiusMiles,
  TargetingInterest,
  TargetingTemplateId,
  TemplateType,
} from '@app/contracts';

/**
 * Wire shapes the wizard reads (spec 000 §3; DESIGN §4): the wire types of contracts, imported as
 * types only, so nothing of zod reaches the landing.
 */
export type { MlsAgentMatch, TemplateType };

export type WizardPath = 'none' | 'mls' | 'manual';

export const WIZARD_STEPS = [1, 2, 3, 4, 5, 6] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** POST /api/agents → 201, stored under the wizard agent key. */
export type Agent = AgentView;

/** A listing as GET /api/agents/:id/listings and POST /api/listings answer it. */
export type Listing = ListingView;

/** The campaign draft the wizard builds from step 1 on (spec 000 §3 Campaign); stored under the campaign key. */
export interface CampaignDraft {
  agentId: number;
  listingId: number;
  templateType: TemplateType;
  adFormat: AdFormat;
  headline: string;
  description: string;
  subtitle: string;
  callToAction: string;
  targetAudience: string;
  /** Budget in dollars as the spec's wire string, e.g. "399". */
  price: string;
  impressions: number;
  imageUrl: string | null;
  carouselImages: string[];
  link: string;
  /** The server's draft campaign this wizard draft is saved as (set by step 5; step 6 updates it). */
  campaignId?: number | null;
  /** Step 5's targeting draft; absent until the wizard fills in the defaults for the listing. */
  targetingLocation?: { city: string; state: string; radius: RadiusMiles };
  targetingInterests?: TargetingInterest[];
  targetingTemplate?: TargetingTemplateId;
  /** The agent chose a template or toggled interests: a new targeting preview no longer replaces them. */
  targetingCustomized?: boolean;
}

/** The manual listing form as typed (strings from inputs; parsed with manualListingFormSchema on submit). */
export interface ManualListingDraft {
  fullName: string;
  state: string;
  address: string;
  city: string;
  price: string;
  bedrooms: string;
  bathrooms: string;
  squareFeet: string;
  status: 'active' | 'sold';
  /** Uploaded photos' stored paths (/objects/uploads/{id}); the first is the primary photo. */
  images: string[];
}

export interface AgentFormDraft {
  name: string;
  state: string;
}

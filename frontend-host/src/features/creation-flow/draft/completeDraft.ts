import {
  AD_FORMATS,
  TEMPLATE_TYPES,
  defaultTargetingDraft,
  impressionsForBudget,
  isRadiusOption,
  isTargetingTemplateId,
  type CampaignDraftInput,
} from '@app/contracts';
import { savableAdCopy, initialAdCopy } from './adCopyRules';
import { campaignDraftFor } from './campaignDraft';
import type { Agent, CampaignDraft, Listing } from './wizardTypes';

/** A campaign draft with every field steps 2–6 use (the targeting is filled in for the listing). */
export type CompleteDraft = Required<CampaignDraft>;

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** Per field: is the stored value usable? (The draft comes from browser storage: anything may be there.) */
const FIELD_CHECKS: { [K in keyof CompleteDraft]: (value: unknown) => boolean } = {
  agentId: (v) => typeof v === 'number',
  listingId: (v) => typeof v === 'number',
  templateType: (v) => (TEMPLATE_TYPES as readonly unknown[]).includes(v),
  adFormat: (v) => (AD_FORMATS as readonly unknown[]).includes(v),
  headline: isString,
  description: isString,
  subtitle: isString,
  callToAction: isString,
  targetAudience: isString,
  price: (v) => isString(v) && /^\d+$/.test(v),
  impressions: (v) => typeof v === 'number' && Number.isFinite(v),
  imageUrl: (v) => v === null || isString(v),
  carouselImages: isStringArray,
  link: isString,
  campaignId: (v) => v === null || (typeof v === 'number' && Number.isInteger(v) && v > 0),
  targetingLocation: (v) => {
    const l = v as CompleteDraft['targetingLocation'] | null;
    return !!l && typeof l === 'object' && isString(l.city) && isString(l.state) && isRadiusOption(l.radius);
  },
  targetingInterests: (v) =>
    Array.isArray(v) &&
    v.every((i: unknown) => {
      const x = i as { id?: unknown; name?: unknown; enabled?: unknown } | null;
      return !!x && isString(x.id) && isString(x.name) && typeof x.enabled === 'boolean';
    }),
  targetingTemplate: isTargetingTemplateId,
  targetingCustomized: (v) => typeof v === 'boolean',
};

/**
 * The stored draft with whatever is missing or unusable filled in from the listing's defaults
 * (a draft from an older page, a half-written storage entry, another listing's draft).
 * Answers null when the stored draft is already complete.
 */
export function repairDraft(stored: CampaignDraft | null, agent: Agent, listing: Listing): CompleteDraft | null {
  const base: CompleteDraft = {
    ...campaignDraftFor(agent, listing, initialAdCopy(listing)),
    campaignId: null,
    ...defaultTargetingDraft(listing),
    targetingCustomized: false,
  };
  if (!stored || stored.listingId !== listing.id) return base;
  let repaired = false;
  const out = { ...base } as Record<keyof CompleteDraft, unknown>;
  for (const key of Object.keys(FIELD_CHECKS) as (keyof CompleteDraft)[]) {
    const value = (stored as Partial<Record<keyof CompleteDraft, unknown>>)[key];
    if (FIELD_CHECKS[key](value)) out[key] = value;
    else repaired = true;
  }
  return repaired ? (out as CompleteDraft) : null;
}

/** True when every field of the draft is present and usable (what repairDraft leaves). */
export function isCompleteDraft(draft: CampaignDraft | null): draft is CompleteDraft {
  if (!draft) return false;
  return (Object.keys(FIELD_CHECKS) as (keyof CompleteDraft)[]).every((key) =>
    FIELD_CHECKS[key]((draft as Partial<Record<keyof CompleteDraft, unknown>>)[key]),
  );
}

/**
 * POST/PATCH /api/campaigns body (spec 000 §7; campaignDraftSchema): the draft as the server takes
 * it, with the budget chosen. The description is never a placeholder; a single-image ad sends no
 * carousel images. impressions/impressionsRequested are what the budget buys (the server recomputes them).
 */
export function campaignBody(draft: CompleteDraft, budget: number): CampaignDraftInput {
  const impressions = impressionsForBudget(budget);
  return {
    agentId: draft.agentId,
    listingId: draft.listingId,
    templateType: draft.templateType,
    adFormat: draft.adFormat,
    headline: draft.headline.trim(),
    description: savableAdCopy(draft.description),
    subtitle: draft.subtitle.trim(),
    callToAction: draft.callToAction.trim(),
    targetAudience: draft.targetAudience,
    price: String(budget),
    impressions,
    impressionsRequested: impressions,
    status: 'draft',
    imageUrl: draft.imageUrl,
    carouselImages: draft.adFormat === 'carousel' ? draft.carouselImages : [],
    link: draft.link.trim(),
    targetingLocation: {
      city: draft.targetingLocation.city.trim(),
      state: draft.targetingLocation.state.trim(),
      radius: draft.targetingLocation.radius,
    },
    targetingInterests: draft.targetingInterests,
    targetingTemplate: draft.targetingTemplate,
  };
}

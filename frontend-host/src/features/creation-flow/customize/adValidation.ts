import { AD_COPY_PLACEHOLDERS, CAMPAIGN_MESSAGES, CAROUSEL_MAX, CAROUSEL_MIN, isHttpUrl } from '@app/contracts';
import type { CompleteDraft } from '../draft/completeDraft';

export type AdField = 'headline' | 'description' | 'link' | 'photos';
export type AdErrors = Partial<Record<AdField, string>>;

/** What step 3 checks before the ad goes on (the same rules as campaignDraftSchema on the server). */
export function validateAd(draft: Pick<CompleteDraft, 'headline' | 'description' | 'link' | 'adFormat' | 'carouselImages'>): AdErrors {
  const errors: AdErrors = {};
  if (!draft.headline.trim()) errors.headline = CAMPAIGN_MESSAGES.headline;
  // No ad without text: a copy still on its way is waited for; an empty one (a failed refresh) is written.
  const text = draft.description.trim();
  if (text === AD_COPY_PLACEHOLDERS.generating || text === AD_COPY_PLACEHOLDERS.regenerating) errors.description = CAMPAIGN_MESSAGES.adCopyPending;
  else if (!text || text === AD_COPY_PLACEHOLDERS.failed) errors.description = CAMPAIGN_MESSAGES.description;
  const link = draft.link.trim();
  if (link && !isHttpUrl(link)) errors.link = CAMPAIGN_MESSAGES.link;
  if (draft.adFormat === 'carousel') {
    if (draft.carouselImages.length < CAROUSEL_MIN) errors.photos = CAMPAIGN_MESSAGES.carouselMin;
    else if (draft.carouselImages.length > CAROUSEL_MAX) errors.photos = CAMPAIGN_MESSAGES.carouselMax;
  }
  return errors;
}

/** Facebook's call-to-action buttons that suit a listing ad; the draft's own value is kept if it is another. */
export const CALL_TO_ACTIONS = ['Learn more', 'View Details', 'Contact us', 'Send message', 'Book now', 'Sign up'] as const;

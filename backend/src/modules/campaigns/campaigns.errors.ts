import { AppError, conflict, forbidden } from '../../platform/errors';

/** The campaigns module's errors (stable codes; the error middleware writes the body, extras included). */

export const campaignForbidden = () => forbidden('campaigns.forbidden', 'You do not have access to this campaign');

export const listingForbidden = () => forbidden('campaigns.listing_forbidden', 'This listing does not belong to this agent');

export const notDraft = (campaignStatus: string) =>
  conflict('campaigns.not_draft', 'This campaign can no longer be changed', { campaignStatus });

/** A 502 with a stable code: the wizard shows "Unable to generate optimized copy" and lets the agent retry. */
export const aiUnavailable = () =>
  new AppError(502, 'ai.provider_unavailable', 'The ad copy service is unavailable right now. Please try again.');

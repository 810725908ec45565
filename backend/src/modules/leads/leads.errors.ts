import { AppError } from '../../platform/errors';
import { LEAD_GUARD_MESSAGES } from '@app/contracts';

/** The leads module's errors (stable codes; the error middleware writes the body). */

export const listingNotFound = () => new AppError(404, 'leads.listing_not_found', 'Listing not found');

/** The hidden field was filled in: people never see it, so a program sent this. */
export const honeypotFilled = () =>
  new AppError(400, 'leads.refused', 'Your information could not be sent. Please reload the page and try again.');

export const formTokenInvalid = () =>
  new AppError(400, 'leads.form_expired', LEAD_GUARD_MESSAGES.formToken, { formToken: LEAD_GUARD_MESSAGES.formToken });

/** Sent sooner than a person can read and type: the page may send it again after `retryAfterSeconds`. */
export const sentTooFast = (retryAfterSeconds: number) =>
  new AppError(400, 'leads.too_fast', LEAD_GUARD_MESSAGES.tooFast, undefined, { retryAfterSeconds });

export const leadNotFound = () => new AppError(404, 'leads.not_found', 'Lead not found');

/** Release and Discard are for a lead held for review. */
export const leadNotHeld = () => new AppError(409, 'leads.not_held', 'This lead is not held for review: it was delivered or discarded already.');

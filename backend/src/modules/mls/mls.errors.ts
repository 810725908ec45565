import { AppError } from '../../platform/errors';

/** The MLS module's errors (stable codes; the error middleware writes the body, extras included). */

export const NO_LISTINGS_MESSAGE = "We couldn't find any active listings for your MLS ID.";
export const PROVIDER_UNAVAILABLE_MESSAGE = 'The MLS is not answering right now. Please try again in a moment, or enter your listing manually.';

export const agentNotFoundInMls = (name: string, state: string) =>
  new AppError(404, 'mls.agent_not_found', `No active agent found for "${name.replace(/\s+/g, ' ').trim()}" in ${state}`);

/** Also the answer for agents without an MLS identity (manual entry): the wizard then offers manual entry. */
export const noListings = () => new AppError(404, 'mls.no_listings', NO_LISTINGS_MESSAGE, undefined, { allowManualEntry: true });

export const providerUnavailable = () =>
  new AppError(502, 'mls.provider_unavailable', PROVIDER_UNAVAILABLE_MESSAGE, undefined, { allowManualEntry: true });

export const mlsIdMismatch = () => new AppError(403, 'mls.mls_id_mismatch', 'This MLS ID does not belong to this agent');

export const photoNotFound = () => new AppError(404, 'mls.photo_not_found', 'Photo not found');

/** `npm run ops -- mls demo …` asked for a change the demo feed cannot make (unknown member or listing, wrong status). */
export const demoChangeRefused = (why: string) => new AppError(409, 'mls.demo_change_refused', why);

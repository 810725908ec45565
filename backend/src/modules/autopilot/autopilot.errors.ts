import { AUTOPILOT_MESSAGES } from '@app/contracts';
import { AppError, conflict, notFound } from '../../platform/errors';

/** The autopilot module's errors (stable codes; the error middleware writes the body). */

export const needsMlsAgent = () => conflict('autopilot.needs_mls', AUTOPILOT_MESSAGES.needsMls);
export const runNotFound = () => notFound('run', 'autopilot');
export const linkInvalid = () => new AppError(404, 'autopilot.link_invalid', AUTOPILOT_MESSAGES.linkInvalid);
export const linkExpired = () => new AppError(410, 'autopilot.link_expired', AUTOPILOT_MESSAGES.linkExpired);
export const linkUsed = () => new AppError(410, 'autopilot.link_used', AUTOPILOT_MESSAGES.linkUsed);
/** The run moved on (launched, skipped, expired…): the action no longer applies. */
export const runMovedOn = (message: string) => conflict('autopilot.run_moved_on', message);

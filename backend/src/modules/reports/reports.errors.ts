import { AppError, notFound } from '../../platform/errors';

/** The reports module's errors (stable codes). */
export const reportNotFound = () => notFound('report');
/** A seller link that does not exist or was revoked: the same 404, nothing about which. */
export const sellerLinkNotFound = () => new AppError(404, 'reports.link_not_found', 'This report link is not available. Ask your agent for a new one.');
export const reportNotFinal = () => new AppError(409, 'reports.not_final', 'The seller link is made when the campaign has ended and its final report is ready.');

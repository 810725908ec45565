import { UPLOAD_NOT_IMAGE_MESSAGE, UPLOAD_TOO_LARGE_MESSAGE } from '@app/contracts';
import { AppError } from '../../platform/errors';

/** The uploads module's errors (stable codes; the error middleware writes the body). */

export const uploadTooLarge = () => new AppError(413, 'uploads.too_large', UPLOAD_TOO_LARGE_MESSAGE);

export const notAnImage = () => new AppError(415, 'uploads.not_an_image', UPLOAD_NOT_IMAGE_MESSAGE);

export const uploadAborted = () => new AppError(400, 'uploads.aborted', 'The upload was interrupted. Please try again.');

export const UPLOAD_AGENT_REQUIRED_MESSAGE = 'Please enter your name and state before adding photos.';

/** Upload slots are handed only to a browser session that owns an agent (logged in, or the wizard's own). */
export const agentRequired = () => new AppError(403, 'uploads.agent_required', UPLOAD_AGENT_REQUIRED_MESSAGE);

const mb = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MB`;

/** The identity's uploads would take more than UPLOAD_QUOTA_BYTES (L4). */
export const quotaExceeded = (heldBytes: number, quotaBytes: number) =>
  new AppError(
    413,
    'uploads.quota_exceeded',
    `Upload limit reached: your images take ${mb(Math.min(heldBytes, quotaBytes))} of the ${mb(quotaBytes)} allowed. Images that no listing or campaign uses are removed a day after upload.`,
    undefined,
    { quotaBytes },
  );

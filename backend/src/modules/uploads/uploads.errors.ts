import { UPLOAD_NOT_IMAGE_MESSAGE, UPLOAD_TOO_LARGE_MESSAGE } from '@app/contracts';
import { AppError } from '../../platform/errors';

/** The uploads module's errors (stable codes; the error middleware writes the body). */

export const uploadTooLarge = () => new AppError(413, 'uploads.too_large', UPLOAD_TOO_LARGE_MESSAGE);

export const notAnImage = () => new AppError(415, 'uploads.not_an_image', UPLOAD_NOT_IMAGE_MESSAGE);

export const uploadAborted = () => new AppError(400, 'uploads.aborted', 'The upload was interrupted. Please try again.');

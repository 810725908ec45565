/** Upload limits and object paths (spec 000 §5, §7; spec 001 §7). */

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024; // 10485760
export const MAX_LISTING_FILES = 10;
/** Profile photo, logo and ad image uploads take one file. */
export const MAX_SINGLE_UPLOAD_FILES = 1;

export const UPLOAD_NOT_IMAGE_MESSAGE = 'Only image files can be uploaded';
export const UPLOAD_TOO_LARGE_MESSAGE = 'Images must be 10 MB or smaller';
export const OBJECTS_PREFIX = '/objects/';
export const UPLOADS_PATH_PREFIX = '/objects/uploads/';

export function isImageContentType(contentType: string | null | undefined): boolean {
  return typeof contentType === 'string' && /^image\/[a-z0-9.+-]+$/i.test(contentType.trim());
}

/** Why a file cannot be uploaded, or null when it can (images only, ≤ 10 MB). */
export function uploadFileError(file: { type: string; size: number }): string | null {
  if (!isImageContentType(file.type)) return UPLOAD_NOT_IMAGE_MESSAGE;
  if (!(file.size >= 0) || file.size > MAX_UPLOAD_BYTES) return UPLOAD_TOO_LARGE_MESSAGE;
  return null;
}

function lastSegment(url: string): string {
  const path = url.split(/[?#]/)[0];
  const seg = path.split('/').filter(Boolean).pop();
  if (!seg || /^[a-z][a-z0-9+.-]*:$/i.test(seg)) throw new RangeError(`no object name in "${url}"`);
  return seg;
}

/** After the PUT: the stored path is /objects/uploads/{last URL segment without the query}. */
export function objectPathFromUploadUrl(uploadURL: string): string {
  return UPLOADS_PATH_PREFIX + lastSegment(uploadURL.trim());
}

/**
 * Image URLs on the private storage host become /objects/uploads/{file}; paths already under
 * /objects/ and every other URL are kept as they are.
 */
export function normalizeImageUrl(url: string, privateStoragePrefix: string): string {
  const u = url.trim();
  if (u.startsWith(OBJECTS_PREFIX)) return u;
  if (privateStoragePrefix && u.startsWith(privateStoragePrefix)) return UPLOADS_PATH_PREFIX + lastSegment(u);
  return u;
}

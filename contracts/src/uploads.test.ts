import {
  MAX_LISTING_FILES,
  MAX_SINGLE_UPLOAD_FILES,
  MAX_UPLOAD_BYTES,
  UPLOAD_NOT_IMAGE_MESSAGE,
  UPLOAD_TOO_LARGE_MESSAGE,
  isImageContentType,
  normalizeImageUrl,
  objectPathFromUploadUrl,
  uploadFileError,
} from './uploads.js';

describe('upload limits', () => {
  it('pins the spec numbers', () => {
    expect(MAX_UPLOAD_BYTES).toBe(10485760);
    expect(MAX_LISTING_FILES).toBe(10);
    expect(MAX_SINGLE_UPLOAD_FILES).toBe(1);
  });
  it('allows images up to 10 MB only', () => {
    expect(uploadFileError({ type: 'image/jpeg', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(uploadFileError({ type: 'image/png', size: MAX_UPLOAD_BYTES + 1 })).toBe(UPLOAD_TOO_LARGE_MESSAGE);
    expect(uploadFileError({ type: 'application/pdf', size: 10 })).toBe(UPLOAD_NOT_IMAGE_MESSAGE);
    expect(uploadFileError({ type: '', size: 10 })).toBe(UPLOAD_NOT_IMAGE_MESSAGE);
    expect(isImageContentType('image/svg+xml')).toBe(true);
    expect(isImageContentType('text/html')).toBe(false);
  });
});

describe('object paths', () => {
  it('uses the last URL segment without the query', () => {
    expect(
      objectPathFromUploadUrl('https://storage.googleapis.com/bucket/.private/uploads/abc-123?X-Goog-Signature=x&y=z'),
    ).toBe('/objects/uploads/abc-123');
    expect(objectPathFromUploadUrl('/api/uploads/put/f00d?sig=1')).toBe('/objects/uploads/f00d');
  });
  it('refuses a URL without an object name', () => {
    expect(() => objectPathFromUploadUrl('https://')).toThrow(RangeError);
    expect(() => objectPathFromUploadUrl('')).toThrow(RangeError);
  });
  it('rewrites private storage URLs and keeps /objects/ paths and other URLs', () => {
    const prefix = 'https://storage.googleapis.com/bucket/.private/';
    expect(normalizeImageUrl(`${prefix}uploads/xyz`, prefix)).toBe('/objects/uploads/xyz');
    expect(normalizeImageUrl('/objects/uploads/xyz', prefix)).toBe('/objects/uploads/xyz');
    expect(normalizeImageUrl('https://photos.example.com/1.jpg', prefix)).toBe('https://photos.example.com/1.jpg');
  });
});

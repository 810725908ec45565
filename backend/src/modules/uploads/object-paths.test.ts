import { toObjectPath } from './object-paths';

const id = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

describe('toObjectPath (spec 001 §7)', () => {
  it('rewrites our upload URLs, with or without their signature query, to the stored path', () => {
    expect(toObjectPath(`https://app.example.com/api/objects/local/${id}?expires=1&sig=ab`, {})).toBe(`/objects/uploads/${id}`);
    expect(toObjectPath(`https://storage.googleapis.com/ads-bucket/uploads/${id}?X-Goog-Signature=x`, { GCS_BUCKET: 'ads-bucket' })).toBe(`/objects/uploads/${id}`);
  });

  it('keeps /objects/ paths and every other URL', () => {
    expect(toObjectPath(`/objects/uploads/${id}`, {})).toBe(`/objects/uploads/${id}`);
    expect(toObjectPath('https://photos.mls.example/123.jpg', { GCS_BUCKET: 'ads-bucket' })).toBe('https://photos.mls.example/123.jpg');
    expect(toObjectPath(`https://storage.googleapis.com/someone-else/uploads/${id}`, { GCS_BUCKET: 'ads-bucket' })).toBe(`https://storage.googleapis.com/someone-else/uploads/${id}`);
    expect(toObjectPath('https://app.example.com/api/objects/local/not-an-id', {})).toBe('https://app.example.com/api/objects/local/not-an-id');
    expect(toObjectPath('not a url', {})).toBe('not a url');
  });
});

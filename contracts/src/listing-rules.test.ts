import {
  canUseCarousel,
  carouselImagesForListing,
  isManualMlsId,
  listingImages,
  listingPagePath,
  manualMlsId,
} from './listing-rules.js';

describe('manual listings', () => {
  it('get MANUAL- plus a timestamp as mlsId', () => {
    expect(manualMlsId(1712345678901)).toBe('MANUAL-1712345678901');
    expect(manualMlsId()).toMatch(/^MANUAL-\d{13}$/);
    expect(isManualMlsId('MANUAL-1')).toBe(true);
    expect(isManualMlsId('A1234')).toBe(false);
    expect(isManualMlsId(null)).toBe(false);
  });
  it('have their own public page route', () => {
    expect(listingPagePath('MANUAL-17')).toBe('/manual-listing/MANUAL-17');
    expect(listingPagePath('A11223')).toBe('/listing/A11223');
    expect(listingPagePath('a/b')).toBe('/listing/a%2Fb');
  });
});

describe('listing images and carousel', () => {
  const twelve = Array.from({ length: 12 }, (_, i) => `/objects/uploads/${i}`);

  it('puts the primary image first and drops blanks and duplicates', () => {
    expect(listingImages({ imageUrl: '/a', images: ['/a', '', '/b', null, '/b'] })).toEqual(['/a', '/b']);
    expect(listingImages({ imageUrl: null, images: null })).toEqual([]);
  });
  it('offers carousel only with at least 2 distinct images', () => {
    expect(canUseCarousel({ imageUrl: '/a', images: ['/a'] })).toBe(false);
    expect(canUseCarousel({ imageUrl: '/a', images: ['/b'] })).toBe(true);
    expect(canUseCarousel({ images: ['/a', '/b'] })).toBe(true);
  });
  it('seeds at most 10 carousel images', () => {
    const seeded = carouselImagesForListing({ imageUrl: '/main', images: twelve });
    expect(seeded).toHaveLength(10);
    expect(seeded[0]).toBe('/main');
    expect(seeded[9]).toBe('/objects/uploads/8');
  });
});

import {
  AD_COPY_PLACEHOLDERS,
  CAROUSEL_MAX,
  CAROUSEL_MIN,
  DEFAULT_CALL_TO_ACTION,
  DEFAULT_TARGET_AUDIENCE,
  PURCHASE_CALL_TO_ACTION,
  defaultAdContent,
  defaultHeadline,
  defaultSubtitle,
  isAdCopyPlaceholder,
  placeholderKindForStatus,
  templateTypeForStatus,
} from './ad-defaults.js';

describe('ad defaults', () => {
  it('derives the template type from the listing status', () => {
    expect(templateTypeForStatus('sold')).toBe('just-sold');
    expect(templateTypeForStatus('Sold')).toBe('just-sold');
    expect(templateTypeForStatus('active')).toBe('just-listed');
    expect(templateTypeForStatus('pending')).toBe('just-listed');
    expect(templateTypeForStatus(undefined)).toBe('just-listed');
  });

  it('uses the spec headlines and subtitles', () => {
    expect(defaultHeadline('just-listed', 'Miami')).toBe('Amazing Property in Miami');
    expect(defaultHeadline('just-sold', ' Tampa ')).toBe('Just Sold in Tampa');
    expect(defaultSubtitle('just-listed')).toBe('Looking to buy, rent or sell?');
    expect(defaultSubtitle('just-sold')).toBe('Wondering what your home is worth?');
  });

  it('uses the spec calls to action, audience and carousel bounds', () => {
    expect(DEFAULT_CALL_TO_ACTION).toBe('Learn more');
    expect(PURCHASE_CALL_TO_ACTION).toBe('View Details');
    expect(DEFAULT_TARGET_AUDIENCE).toBe('Local Home Buyers (25-55)');
    expect([CAROUSEL_MIN, CAROUSEL_MAX]).toEqual([2, 10]);
  });

  it('seeds all ad fields for a sold listing', () => {
    expect(defaultAdContent({ status: 'sold', city: 'Orlando' })).toEqual({
      templateType: 'just-sold',
      adFormat: 'single',
      headline: 'Just Sold in Orlando',
      subtitle: 'Wondering what your home is worth?',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)',
    });
  });

  it('recognises the ad copy placeholders', () => {
    expect(AD_COPY_PLACEHOLDERS).toEqual({
      generating: 'Generating optimized ad copy...',
      regenerating: 'Regenerating ad copy...',
      failed: 'Unable to generate optimized copy',
    });
    expect(isAdCopyPlaceholder('Regenerating ad copy...')).toBe(true);
    expect(isAdCopyPlaceholder(' Unable to generate optimized copy ')).toBe(true);
    expect(isAdCopyPlaceholder('Stunning 3-bed home near the beach.')).toBe(false);
    expect(isAdCopyPlaceholder(null)).toBe(false);
  });

  it('picks the image placeholder by status', () => {
    expect(placeholderKindForStatus('sold')).toBe('just sold');
    expect(placeholderKindForStatus('active')).toBe('just listed');
  });
});

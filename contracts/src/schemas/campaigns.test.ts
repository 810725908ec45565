import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { HOUSING_TARGETING_REJECTED } from '../targeting.js';
import { budgetSchema, campaignDraftSchema, carouselImagesSchema } from './campaigns.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

const imgs = (n: number) => Array.from({ length: n }, (_, i) => `/objects/uploads/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);

describe('carousel images', () => {
  it('need 2 to 10 images', () => {
    expect(carouselImagesSchema.parse(imgs(2))).toHaveLength(2);
    expect(carouselImagesSchema.parse(imgs(10))).toHaveLength(10);
    expect(errorsOf(carouselImagesSchema, imgs(1))).toEqual({ _root: 'Carousel ads require at least 2 images' });
    expect(errorsOf(carouselImagesSchema, [])).toEqual({ _root: 'Carousel ads require at least 2 images' });
    expect(errorsOf(carouselImagesSchema, imgs(11))).toEqual({ _root: 'Carousel ads allow at most 10 images' });
  });
});

describe('budget', () => {
  it.each([
    ['99', 99],
    ['399', 399],
    ['999', 999],
    [' 299 ', 299],
    ['299.00', 299],
    [149, 149],
  ])('accepts %p', (input, out) => expect(budgetSchema.parse(input)).toBe(out));

  it.each(['100', '1049', '49', '0', '', 'abc', '299.50', '-99', 300, 1000, 299.5])('rejects %p', (input) =>
    expect(errorsOf(budgetSchema, input)).toEqual({ _root: 'Budget must be between $99 and $999 in steps of $50' }),
  );
});

describe('campaign draft', () => {
  const wizard = {
    agentId: 1,
    listingId: 2,
    templateType: 'just-listed',
    adFormat: 'single',
    headline: 'Amazing Property in Miami',
    description: 'Sun-filled 3 bed home minutes from the beach.',
    subtitle: 'Looking to buy, rent or sell?',
    callToAction: 'Learn more',
    targetAudience: 'Local Home Buyers (25-55)',
    impressions: 25000,
    price: '399',
    imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000061',
    carouselImages: [],
    link: 'https://app.example.com/listing/A123',
  };

  it('accepts the wizard payload and drops the client impressions', () => {
    const out = campaignDraftSchema.parse(wizard);
    expect(out).toEqual({
      agentId: 1,
      listingId: 2,
      templateType: 'just-listed',
      adFormat: 'single',
      headline: 'Amazing Property in Miami',
      description: 'Sun-filled 3 bed home minutes from the beach.',
      subtitle: 'Looking to buy, rent or sell?',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)',
      price: 399,
      imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000061',
      carouselImages: [],
      link: 'https://app.example.com/listing/A123',
    });
    expect('impressions' in out).toBe(false);
  });

  it('accepts the pricing-step draft with status, impressionsRequested and targeting', () => {
    const out = campaignDraftSchema.parse({
      ...wizard,
      impressionsRequested: '15000',
      status: 'draft',
      price: '299',
      targetingLocation: { city: 'Miami', state: 'FL', radius: 35 },
      targetingInterests: [{ id: 'zillow', name: 'Zillow', enabled: true }],
      targetingTemplate: 'buyers',
    });
    expect(out).toMatchObject({ status: 'draft', price: 299, targetingTemplate: 'buyers' });
    expect(out.targetingLocation).toEqual({ city: 'Miami', state: 'FL', radius: 35 });
    expect('impressionsRequested' in out).toBe(false);
  });

  it('fills defaults for format, call to action, audience and optional copy', () => {
    const out = campaignDraftSchema.parse({
      agentId: '1',
      listingId: '2',
      templateType: 'just-sold',
      headline: 'Just Sold in Tampa',
      description: 'Sold in 9 days.',
      price: 99,
    });
    expect(out).toEqual({
      agentId: 1,
      listingId: 2,
      templateType: 'just-sold',
      adFormat: 'single',
      headline: 'Just Sold in Tampa',
      description: 'Sold in 9 days.',
      subtitle: '',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)',
      price: 99,
      imageUrl: null,
      carouselImages: [],
      link: null,
    });
  });

  it('refuses housing-forbidden keys at the top level and drops other unknown keys', () => {
    const refused = campaignDraftSchema.safeParse({ ...wizard, age: { min: 25, max: 55 }, gender: 'female', zip: '33101' });
    expect(refused.success).toBe(false);
    const paths = refused.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['age', 'gender', 'zip']));
    const out = campaignDraftSchema.parse({ ...wizard, somethingElse: 1 });
    expect(out).not.toHaveProperty('somethingElse');
  });

  it('rejects an off-grid budget with the budget message', () => {
    expect(errorsOf(campaignDraftSchema, { ...wizard, price: '350' })).toEqual({
      price: 'Budget must be between $99 and $999 in steps of $50',
    });
  });

  it('rejects a missing headline, a long headline and bad ids', () => {
    expect(errorsOf(campaignDraftSchema, { ...wizard, headline: ' ', agentId: 0, listingId: 'abc' })).toEqual({
      agentId: 'Must be a positive whole number',
      listingId: 'Must be a positive whole number',
      headline: 'Headline is required',
    });
    expect(errorsOf(campaignDraftSchema, { ...wizard, headline: 'h'.repeat(256) })).toEqual({
      headline: 'Must be at most 255 characters',
    });
  });

  it('rejects unknown template types, formats and non-draft status', () => {
    expect(errorsOf(campaignDraftSchema, { ...wizard, templateType: 'coming-soon', adFormat: 'video', status: 'active' })).toEqual({
      templateType: 'Template type must be just-listed or just-sold',
      adFormat: 'Ad format must be single or carousel',
      status: 'A new campaign can only be a draft',
    });
  });

  it('refuses an ad without a headline or ad text, field by field', () => {
    for (const blank of [undefined, null, '', '   ']) {
      expect(errorsOf(campaignDraftSchema, { ...wizard, headline: blank, description: blank })).toEqual({
        headline: 'Headline is required',
        description: 'Ad text is required',
      });
    }
  });

  it('rejects ad-copy placeholders as the description, the failure text included', () => {
    expect(errorsOf(campaignDraftSchema, { ...wizard, description: 'Unable to generate optimized copy' })).toEqual({
      description: 'Please wait for the ad copy to finish generating, or write your own',
    });
    expect(errorsOf(campaignDraftSchema, { ...wizard, description: 'Generating optimized ad copy...' })).toEqual({
      description: 'Please wait for the ad copy to finish generating, or write your own',
    });
  });

  describe('carousel', () => {
    it('needs at least 2 images when the format is carousel', () => {
      expect(errorsOf(campaignDraftSchema, { ...wizard, adFormat: 'carousel', carouselImages: imgs(1) })).toEqual({
        carouselImages: 'Carousel ads require at least 2 images',
      });
      expect(errorsOf(campaignDraftSchema, { ...wizard, adFormat: 'carousel', carouselImages: undefined })).toEqual({
        carouselImages: 'Carousel ads require at least 2 images',
      });
      expect(campaignDraftSchema.parse({ ...wizard, adFormat: 'carousel', carouselImages: imgs(2) }).carouselImages).toEqual(
        imgs(2),
      );
    });
    it('allows at most 10 images in any format', () => {
      expect(campaignDraftSchema.parse({ ...wizard, adFormat: 'carousel', carouselImages: imgs(10) }).carouselImages).toHaveLength(10);
      expect(errorsOf(campaignDraftSchema, { ...wizard, adFormat: 'carousel', carouselImages: imgs(11) })).toEqual({
        carouselImages: 'Carousel ads allow at most 10 images',
      });
      expect(errorsOf(campaignDraftSchema, { ...wizard, carouselImages: imgs(11) })).toEqual({
        carouselImages: 'Carousel ads allow at most 10 images',
      });
    });
  });

  describe('link', () => {
    it.each(['http://example.com/listing/1', 'https://example.com/listing/1?utm_source=fb'])('accepts %p', (link) =>
      expect(campaignDraftSchema.parse({ ...wizard, link }).link).toBe(link),
    );
    it('treats an empty link as absent', () => {
      expect(campaignDraftSchema.parse({ ...wizard, link: '' }).link).toBeNull();
    });
    it.each([
      'javascript:alert(1)',
      'ftp://example.com/listing',
      'data:text/html,<script>alert(1)</script>',
      '/listing/1',
      'example.com/listing/1',
    ])('rejects %p', (link) =>
      expect(errorsOf(campaignDraftSchema, { ...wizard, link })).toEqual({
        link: 'Link must be a valid http or https URL',
      }),
    );
  });

  it('rejects demographic targeting inside the draft', () => {
    expect(
      errorsOf(campaignDraftSchema, {
        ...wizard,
        targetingLocation: { city: 'Miami', state: 'FL', radius: 10, zipCode: '33101' },
      }),
    ).toEqual({
      'targetingLocation.zipCode': HOUSING_TARGETING_REJECTED,
      'targetingLocation.radius': 'Radius must be one of 15, 25, 35 or 50 miles',
    });
  });
});

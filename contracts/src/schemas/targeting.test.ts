import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { HOUSING_TARGETING_REJECTED, defaultTargetingDraft } from '../targeting.js';
import { targetingDraftSchema, targetingLocationSchema, targetingPreviewSchema } from './targeting.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('targeting draft', () => {
  const draft = defaultTargetingDraft({ city: 'Miami', state: 'FL' });

  it('accepts the default draft', () => {
    expect(targetingDraftSchema.parse(draft)).toEqual(draft);
  });

  it('defaults radius, template and interests', () => {
    expect(targetingDraftSchema.parse({ targetingLocation: { city: 'Miami', state: 'FL' } })).toEqual({
      targetingLocation: { city: 'Miami', state: 'FL', radius: 25 },
      targetingInterests: [],
      targetingTemplate: 'general',
    });
  });

  it.each([15, 25, 35, 50])('accepts radius %p', (radius) =>
    expect(targetingLocationSchema.parse({ city: 'Miami', state: 'FL', radius }).radius).toBe(radius),
  );

  it.each([0, 5, 10, 20, 100, '25'])('rejects radius %p', (radius) =>
    expect(errorsOf(targetingLocationSchema, { city: 'Miami', state: 'FL', radius })).toEqual({
      radius: 'Radius must be one of 15, 25, 35 or 50 miles',
    }),
  );

  it.each([
    ['age', { targetingLocation: draft.targetingLocation, age: { min: 25, max: 55 } }, 'age'],
    ['gender', { targetingLocation: draft.targetingLocation, gender: 'female' }, 'gender'],
    ['ageMin', { targetingLocation: draft.targetingLocation, ageMin: 25 }, 'ageMin'],
    ['zip in location', { targetingLocation: { ...draft.targetingLocation, zip: '33101' } }, 'targetingLocation.zip'],
    [
      'postalCode in location',
      { targetingLocation: { ...draft.targetingLocation, postalCode: '33101' } },
      'targetingLocation.postalCode',
    ],
  ])('rejects %s', (_label, input, path) => {
    expect(errorsOf(targetingDraftSchema, input)).toEqual({ [path]: HOUSING_TARGETING_REJECTED });
  });

  it('rejects any other unknown key too', () => {
    expect(errorsOf(targetingDraftSchema, { ...draft, income: 'top 10%' })).toEqual({ income: 'Unknown field' });
    expect(
      errorsOf(targetingDraftSchema, {
        ...draft,
        targetingInterests: [{ id: 'x', name: 'X', enabled: true, audience: 'men' }],
      }),
    ).toEqual({ 'targetingInterests.0.audience': 'Unknown field' });
  });

  it('checks template ids and interest entries', () => {
    expect(
      errorsOf(targetingDraftSchema, {
        ...draft,
        targetingTemplate: 'seniors',
        targetingInterests: [{ id: 'x', name: '', enabled: 'yes' }],
      }),
    ).toEqual({
      targetingTemplate: 'Please select a targeting template',
      'targetingInterests.0.name': 'Interest name is required',
      'targetingInterests.0.enabled': 'enabled must be true or false',
    });
  });

  it('caps the interest list', () => {
    const many = Array.from({ length: 26 }, (_, i) => ({ id: `i${i}`, name: `I${i}`, enabled: true }));
    expect(errorsOf(targetingDraftSchema, { ...draft, targetingInterests: many })).toEqual({
      targetingInterests: 'At most 25 interests',
    });
  });
});

describe('targeting preview', () => {
  it('accepts the listing price as a string or a number', () => {
    expect(targetingPreviewSchema.parse({ city: 'Miami', state: 'FL', listingPrice: '450000.00' })).toEqual({
      city: 'Miami',
      state: 'FL',
      listingPrice: 450000,
    });
    expect(targetingPreviewSchema.parse({ city: 'Miami', state: 'FL', listingPrice: 1 }).listingPrice).toBe(1);
  });
  it('rejects missing fields, bad prices and demographic keys', () => {
    expect(errorsOf(targetingPreviewSchema, { city: '', state: '', listingPrice: 'lots', gender: 'x' })).toEqual({
      city: 'City is required',
      state: 'State is required',
      listingPrice: 'Listing price must be a number',
      gender: HOUSING_TARGETING_REJECTED,
    });
  });
});

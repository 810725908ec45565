import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import { listingCreateSchema, manualListingDefaults, manualListingFormSchema } from './listings.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('manual listing form', () => {
  const filled = {
    ...manualListingDefaults({ name: 'Jane Doe' }),
    address: '12 Ocean Dr',
    city: 'Miami',
    price: '450000',
  };

  it('has the spec defaults', () => {
    expect(manualListingDefaults()).toEqual({
      fullName: '',
      state: 'FL',
      address: '',
      city: '',
      price: '',
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1500,
      status: 'active',
      images: [],
    });
    expect(manualListingDefaults({ state: 'tx', name: ' Jane ' })).toMatchObject({ state: 'TX', fullName: 'Jane' });
    expect(manualListingDefaults({ state: 'Texas' }).state).toBe('FL');
  });

  it('reports every empty required field with the spec messages', () => {
    expect(
      errorsOf(manualListingFormSchema, {
        fullName: '',
        state: '',
        address: '',
        city: '',
        price: '',
        bedrooms: -1,
        bathrooms: '',
        squareFeet: 0,
        status: '',
      }),
    ).toEqual({
      fullName: 'Full name is required',
      state: 'State is required',
      address: 'Address is required',
      city: 'City is required',
      price: 'Price is required',
      bedrooms: 'Bedrooms must be 0 or more',
      bathrooms: 'Bathrooms is required',
      squareFeet: 'Square feet must be greater than 0',
      status: 'Please select a listing status',
    });
  });

  it('accepts the filled defaults', () => {
    expect(manualListingFormSchema.parse(filled)).toEqual({
      fullName: 'Jane Doe',
      state: 'FL',
      address: '12 Ocean Dr',
      city: 'Miami',
      price: '450000',
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1500,
      status: 'active',
      images: [],
    });
  });

  it('turns empty bedrooms into 0 and parses number inputs given as strings', () => {
    expect(manualListingFormSchema.parse({ ...filled, bedrooms: '' }).bedrooms).toBe(0);
    expect(manualListingFormSchema.parse({ ...filled, bedrooms: NaN }).bedrooms).toBe(0);
    expect(manualListingFormSchema.parse({ ...filled, bedrooms: undefined }).bedrooms).toBe(0);
    expect(manualListingFormSchema.parse({ ...filled, bedrooms: '4', squareFeet: '2100' })).toMatchObject({
      bedrooms: 4,
      squareFeet: 2100,
    });
    expect(errorsOf(manualListingFormSchema, { ...filled, squareFeet: '' })).toEqual({
      squareFeet: 'Square feet must be greater than 0',
    });
    expect(errorsOf(manualListingFormSchema, { ...filled, squareFeet: NaN })).toEqual({
      squareFeet: 'Square feet must be greater than 0',
    });
    expect(errorsOf(manualListingFormSchema, { ...filled, bedrooms: 'three' })).toEqual({
      bedrooms: 'Bedrooms must be 0 or more',
    });
  });

  it('normalises a typed price and rejects a malformed one', () => {
    expect(manualListingFormSchema.parse({ ...filled, price: ' $450,000 ' }).price).toBe('450000');
    expect(errorsOf(manualListingFormSchema, { ...filled, price: 'cheap' })).toEqual({
      price: 'Price must be a positive amount with at most 2 decimals',
    });
  });

  it('accepts sold, rejects other statuses', () => {
    expect(manualListingFormSchema.parse({ ...filled, status: 'sold' }).status).toBe('sold');
    expect(errorsOf(manualListingFormSchema, { ...filled, status: 'pending' })).toEqual({
      status: 'Please select a listing status',
    });
  });

  it('allows up to 10 images', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `/objects/uploads/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect(manualListingFormSchema.parse({ ...filled, images: ten }).images).toHaveLength(10);
    expect(errorsOf(manualListingFormSchema, { ...filled, images: [...ten, '/objects/uploads/00000000-0000-4000-8000-000000000078'] })).toEqual({
      images: 'A listing can have at most 10 images',
    });
  });
});

describe('listing create payload', () => {
  const payload = {
    agentId: 3,
    address: '12 Ocean Dr',
    city: 'Miami',
    state: 'FL',
    price: '450000',
    bedrooms: 3,
    bathrooms: '2.0',
    squareFeet: 1500,
    status: 'active',
    imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000061',
    images: ['/objects/uploads/00000000-0000-4000-8000-000000000061', '/objects/uploads/00000000-0000-4000-8000-000000000062'],
    mlsId: 'MANUAL-1712345678901',
  };

  it('accepts the wizard payload', () => {
    expect(listingCreateSchema.parse(payload)).toEqual(payload);
  });

  it('fills images, imageUrl and mlsId when absent', () => {
    const { imageUrl: _i, images: _im, mlsId: _m, ...rest } = payload;
    expect(listingCreateSchema.parse(rest)).toMatchObject({ images: [], imageUrl: null, mlsId: null });
  });

  it.each(['450000.50', '0.01', '99999999.99'])('accepts the price %p', (price) =>
    expect(listingCreateSchema.parse({ ...payload, price }).price).toBe(price),
  );

  it.each(['0', '-1', '450000.505', '100000000', 'abc', '4,500', '1e5'])('rejects the price %p', (price) =>
    expect(errorsOf(listingCreateSchema, { ...payload, price })).toEqual({
      price: 'Price must be a positive amount with at most 2 decimals',
    }),
  );

  it('wants real numbers on the wire and checks them', () => {
    expect(errorsOf(listingCreateSchema, { ...payload, bedrooms: '3', squareFeet: 0, agentId: 'x' })).toEqual({
      agentId: 'Must be a positive whole number',
      bedrooms: 'Bedrooms must be 0 or more',
      squareFeet: 'Square feet must be greater than 0',
    });
  });

  it('rejects unsafe image references', () => {
    expect(errorsOf(listingCreateSchema, { ...payload, images: ['javascript:alert(1)'] })).toEqual({
      'images.0': 'Image must be an http(s) URL or an uploaded /objects/ path',
    });
  });
});

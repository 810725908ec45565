import { checkFairHousing } from '../../fair-housing/fair-housing';
import { listingFacts, type ListingForCopy } from '../listing-facts';
import { BUILTIN_VARIANTS, BuiltinCopywriter, writeBuiltinCopy } from './builtin-copywriter';

const full: ListingForCopy = {
  city: 'Tampa',
  state: 'FL',
  price: '450000',
  bedrooms: 3,
  bathrooms: '2.5',
  squareFeet: 1850,
  propertyType: 'Single Family Residence',
  yearBuilt: 2004,
  // The MLS mapping's shape (RESO lists and flags, camelCased).
  amenities: {
    heating: ['Central'],
    appliances: ['Dishwasher'],
    interiorFeatures: ['Kitchen Island', 'Ceiling Fans(s)', 'Walk-In Closet(s)'],
    fireplace: true,
    associationFeeFrequency: 'Monthly',
  },
  description: 'Sunny home with a screened lanai.',
};

const sentences = (s: string) => s.split(/(?<=[.!?])\s+/).filter(Boolean);
const NONSENSE = /undefined|null|NaN|\b0[- ]bed|\b0[- ]bath|\$0\b|\$ |  |\s[.,]/;

describe('built-in copywriter', () => {
  it('writes just-listed copy from the facts', () => {
    const copy = writeBuiltinCopy(listingFacts(full, 'just-listed'), 0);
    expect(copy).toBe(
      'Just listed in Tampa, FL! This 3-bed, 2.5-bath home with 1,850 sq ft is now available at $450,000. ' +
        'Highlights: screened lanai, kitchen island and walk-in closet. Schedule your private tour today.',
    );
  });

  it('writes different copy for just-sold, without the price', () => {
    const listed = writeBuiltinCopy(listingFacts(full, 'just-listed'), 0);
    const sold = writeBuiltinCopy(listingFacts(full, 'just-sold'), 0);
    expect(sold).not.toBe(listed);
    expect(sold).toMatch(/sold/i);
    expect(sold).not.toContain('$450,000');
    expect(sold).toContain('Tampa');
  });

  it.each(['just-listed', 'just-sold'] as const)('has %p variants that all differ, in 2 to 4 sentences', (type) => {
    const copies = Array.from({ length: BUILTIN_VARIANTS }, (_, v) => writeBuiltinCopy(listingFacts(full, type), v));
    expect(new Set(copies).size).toBe(BUILTIN_VARIANTS);
    for (const copy of copies) {
      const n = sentences(copy).length;
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(4);
      expect(copy).not.toMatch(NONSENSE);
      expect(checkFairHousing(copy)).toEqual([]);
    }
  });

  it('gives consecutive variants different text, wrapping around', () => {
    const facts = listingFacts(full, 'just-listed');
    for (let v = 0; v < 10; v++) expect(writeBuiltinCopy(facts, v + 1)).not.toBe(writeBuiltinCopy(facts, v));
    expect(writeBuiltinCopy(facts, BUILTIN_VARIANTS)).toBe(writeBuiltinCopy(facts, 0));
  });

  it.each(['just-listed', 'just-sold'] as const)('handles a listing with almost no facts (%s)', (type) => {
    const bare = listingFacts({ city: '', state: null, price: '0', bedrooms: 0, bathrooms: null, squareFeet: null }, type);
    for (let v = 0; v < BUILTIN_VARIANTS; v++) {
      const copy = writeBuiltinCopy(bare, v);
      expect(copy.length).toBeGreaterThan(20);
      expect(copy).not.toMatch(NONSENSE);
      expect(copy).not.toMatch(/\bin\s*[!.,:]/);
    }
  });

  it('leaves out only what is missing', () => {
    const copy = writeBuiltinCopy(listingFacts({ city: 'Austin', state: 'TX', price: null, bedrooms: 2, bathrooms: null, squareFeet: 900 }, 'just-listed'), 0);
    expect(copy).toBe('Just listed in Austin, TX! This 2-bed home with 900 sq ft is now available. Schedule your private tour today.');
  });

  it('names condos and townhomes, and uses "an" where it should', () => {
    const condo = writeBuiltinCopy(listingFacts({ city: 'Miami', state: 'FL', bedrooms: 8, propertyType: 'Condominium' }, 'just-listed'), 1);
    expect(condo).toContain('an 8-bed condo');
    const town = writeBuiltinCopy(listingFacts({ city: 'Denver', state: 'CO', bedrooms: 2, propertyType: 'Townhouse' }, 'just-sold'), 0);
    expect(town).toContain('2-bed townhome');
  });

  it('keeps the selling points of the amenities, not heating, appliances or fees', () => {
    const facts = listingFacts(full, 'just-listed');
    expect(facts.features).toEqual(['screened lanai', 'Kitchen Island', 'Walk-In Closet', 'fireplace']);
    expect(listingFacts({ amenities: ['Pool', 'pool', 'Gated entry'] }, 'just-listed').features).toEqual(['Pool', 'Gated entry']);
  });

  it('picks selling points out of the remarks', () => {
    const facts = listingFacts({ city: 'Naples', state: 'FL', description: 'Heated pool, open floor plan and a chef\u2019s kitchen. New roof 2022.' }, 'just-listed');
    expect(facts.features).toEqual(expect.arrayContaining(['pool', 'open floor plan', 'new roof']));
  });

  it('is the provider named builtin', async () => {
    const provider = new BuiltinCopywriter();
    expect(provider.name).toBe('builtin');
    await expect(provider.write(listingFacts(full, 'just-listed'), { variant: 2, refresh: true })).resolves.toBe(
      writeBuiltinCopy(listingFacts(full, 'just-listed'), 2),
    );
  });
});

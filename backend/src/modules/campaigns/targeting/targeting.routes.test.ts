import { HOUSING_TARGETING_REJECTED } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../../test/helpers';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const preview = (body: unknown) => t.request.post('/api/targeting/preview').send(body as object);

describe('POST /api/targeting/preview', () => {
  it('answers interests and a reach estimate for a known city', async () => {
    const res = await preview({ city: 'Miami', state: 'FL', listingPrice: '450000' }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['estimatedReach', 'interests']);
    expect(typeof res.body.estimatedReach).toBe('number');
    expect(res.body.estimatedReach).toBeGreaterThan(1_000_000);
    expect(res.body.interests).toContainEqual({ id: 'zillow', name: 'Zillow', enabled: true });
  });

  it('estimates more reach for a wider radius, and refuses radii step 5 does not offer', async () => {
    const narrow = await preview({ city: 'Orlando', state: 'FL', listingPrice: 400000, radius: 15 }).expect(200);
    const wide = await preview({ city: 'Orlando', state: 'FL', listingPrice: 400000, radius: 50 }).expect(200);
    expect(wide.body.estimatedReach).toBeGreaterThan(narrow.body.estimatedReach);
    const bad = await preview({ city: 'Orlando', state: 'FL', listingPrice: 400000, radius: 5 }).expect(400);
    expect(bad.body.fields).toHaveProperty('radius');
  });

  it('chooses interests by listing price', async () => {
    const luxury = await preview({ city: 'Miami', state: 'FL', listingPrice: 3_500_000 }).expect(200);
    expect(luxury.body.interests.map((i: { name: string }) => i.name)).toContain('Real estate investing');
    const starter = await preview({ city: 'Miami', state: 'FL', listingPrice: '189000.00' }).expect(200);
    expect(starter.body.interests.map((i: { name: string }) => i.name)).toContain('First-time buyer');
    expect(starter.body.interests.map((i: { name: string }) => i.name)).not.toContain('Real estate investing');
  });

  it('accepts a state name and any case', async () => {
    const byName = await preview({ city: 'tampa', state: 'Florida', listingPrice: 400000 }).expect(200);
    const byCode = await preview({ city: 'Tampa', state: 'fl', listingPrice: 400000 }).expect(200);
    expect(byName.body.estimatedReach).toBe(byCode.body.estimatedReach);
  });

  it('falls back to the state for a city it does not know', async () => {
    const unknown = await preview({ city: 'Nowhereville', state: 'FL', listingPrice: 400000 }).expect(200);
    expect(unknown.body.estimatedReach).toBeGreaterThan(0);
    const miami = await preview({ city: 'Miami', state: 'FL', listingPrice: 400000 }).expect(200);
    expect(unknown.body.estimatedReach).toBeLessThan(miami.body.estimatedReach);
  });

  it('rejects missing and malformed fields with field messages', async () => {
    const res = await preview({ city: ' ', state: '', listingPrice: 'abc' }).expect(400);
    expect(res.body.fields).toEqual({
      city: 'City is required',
      state: 'State is required',
      listingPrice: 'Listing price must be a number',
    });
    expect(res.body.code).toBe('request.invalid');
  });

  it('rejects a state that is not a US state', async () => {
    const res = await preview({ city: 'Springfield', state: 'Atlantis', listingPrice: 1 }).expect(400);
    expect(res.body.fields).toEqual({ state: 'Please select a valid US state' });
  });

  it('rejects ZIP code and demographic keys (housing ads)', async () => {
    const res = await preview({ city: 'Miami', state: 'FL', listingPrice: 1, zip: '33101', age: '25-55' }).expect(400);
    expect(res.body.fields).toEqual({ zip: HOUSING_TARGETING_REJECTED, age: HOUSING_TARGETING_REJECTED });
  });
});

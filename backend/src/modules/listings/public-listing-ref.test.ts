import { createReadCaches } from '../../platform/cache/read-cache';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { insertAgent, insertListing } from '../../../test/factories';
import { Listing } from './listing.model';
import { presentLeadDeliveryListing } from './listings.presenter';
import { findPublicListingRef, resolvePublicListing } from './public-listing';

// The listing a lead goes to (findPublicListingRef) is read with a statement of its own over the pipelined
// connection: it must answer what the listing model's read presents, for the listing resolvePublicListing picks.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

// No cache: each call reads the database.
const uncached = () => ({ caches: createReadCaches(t.db, 0) });

describe('findPublicListingRef', () => {
  it("answers the listing's id, its agent and the delivery snapshot the model's read presents", async () => {
    const agent = await insertAgent(t.db);
    const row = await insertListing(t.db, agent.id, { postalCode: '33602', bathrooms: 2.5, squareFeet: 1800, priceCents: 45_012_345 });
    const ref = await findPublicListingRef(uncached(), row.mlsId);
    const model = (await Listing.query().findById(row.id))!;
    expect(ref).toEqual({ listingId: row.id, agentId: agent.id, listing: presentLeadDeliveryListing(model) });
    expect(ref!.listing).toMatchObject({ id: row.id, mlsId: row.mlsId, postalCode: '33602', price: '450123.45', bedrooms: 3, bathrooms: '2.5', squareFeet: 1800, imageUrl: '/demo-mls/photos/exterior-01.jpg' });
  });

  it('picks the listing resolvePublicListing picks when two agents share a manual id (the first saved), and nothing for an unknown id', async () => {
    const mlsId = `MANUAL-${Date.now()}`;
    const first = await insertListing(t.db, (await insertAgent(t.db)).id, { mlsId, address: '1 First St' });
    await insertListing(t.db, (await insertAgent(t.db)).id, { mlsId, address: '2 Second St' });
    const ref = await findPublicListingRef(uncached(), mlsId);
    expect(ref).toMatchObject({ listingId: first.id, agentId: first.agentId, listing: { address: '1 First St' } });
    expect((await resolvePublicListing(mlsId))!.id).toBe(first.id);
    expect(await findPublicListingRef(uncached(), 'NO-SUCH-LISTING')).toBeUndefined();
  });
});

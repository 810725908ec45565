import crypto from 'node:crypto';
import type { LeadForDelivery } from '../modules/notifications';
import type { Db } from '../platform/db/knex';

/**
 * Test data written straight to the tables, with sensible defaults; each factory takes overrides and makes its
 * missing parents. For tests about what happens after the wizard (launches, metrics, public pages, leads,
 * deliveries, reports) and for bench:launch, which loads the compiled file. Tests import these through
 * backend/test/factories.ts, beside the factories that go through the API.
 */

/** An agent row: Dana Whitfield in FL, unless `fields` say otherwise. */
export async function insertAgent(db: Db, fields: Record<string, unknown> = {}): Promise<{ id: number } & Record<string, unknown>> {
  const [agent] = await db('agents').insert({ name: 'Dana Whitfield', state: 'FL', ...fields }).returning('*');
  return agent;
}

/** One of the agent's MLS listings: a Tampa 3-bed with two demo photos and a map point, under a fresh mlsId. */
export async function insertListing(db: Db, agentId: number, fields: Record<string, unknown> = {}): Promise<{ id: number; agentId: number; mlsId: string } & Record<string, unknown>> {
  const [listing] = await db('listings')
    .insert({
      agentId,
      mlsId: `T${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
      address: '12 Palm Ave',
      city: 'Tampa',
      state: 'FL',
      priceCents: 45_000_000,
      bedrooms: 3,
      status: 'active',
      imageUrl: '/demo-mls/photos/exterior-01.jpg',
      images: JSON.stringify(['/demo-mls/photos/exterior-01.jpg', '/demo-mls/photos/kitchen-01.jpg']),
      description: 'Sunny 3-bed home with a pool.',
      latitude: 27.9506,
      longitude: -82.4572,
      ...fields,
    })
    .returning('*');
  return listing;
}

/** A draft campaign for the listing as the wizard leaves one (copy, targeting, 15,000 impressions for $299), with its first transition. */
export async function insertDraftCampaign(
  db: Db,
  listing: { id: number; agentId: number; mlsId: string },
  fields: Record<string, unknown> = {},
): Promise<number> {
  const [c] = await db('campaigns')
    .insert({
      agentId: listing.agentId,
      listingId: listing.id,
      agentName: 'Dana Whitfield',
      agentBrokerage: 'Gulf Coast Realty',
      state: 'FL',
      mlsListingId: listing.mlsId,
      templateType: 'just-listed',
      adFormat: 'single',
      headline: 'Amazing Property in Tampa',
      description: 'Sunny 3-bed home with a pool. Schedule a tour today.',
      subtitle: 'Looking to buy, rent or sell?',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers',
      imageUrl: '/demo-mls/photos/exterior-01.jpg',
      carouselImages: JSON.stringify([]),
      link: `https://app.example.com/listing/${listing.mlsId}`,
      targeting: JSON.stringify({
        targetingLocation: { city: 'Tampa', state: 'FL', radius: 25 },
        targetingInterests: [
          { id: 'real-estate', name: 'Real estate', enabled: true },
          { id: 'zillow', name: 'Zillow', enabled: true },
          { id: 'trulia', name: 'Trulia', enabled: false },
        ],
        targetingTemplate: 'buyers',
      }),
      budgetCents: 29_900,
      impressionsRequested: 15_000,
      status: 'draft',
      ...fields,
    })
    .returning('id');
  await db('campaignTransitions').insert({ campaignId: c.id, fromStatus: null, toStatus: 'draft', reason: 'created' });
  return c.id;
}

/**
 * An agent, one of its MLS listings (`insertListing`) and a draft campaign for it (`insertDraftCampaign`): the
 * launch, metrics, public page, leads and reports tests start here.
 */
export async function insertListingWithDraftCampaign(
  db: Db,
  campaign: Record<string, unknown> = {},
  listing: Record<string, unknown> = {},
): Promise<{ campaignId: number; agentId: number; listingId: number; mlsId: string }> {
  const agent = await insertAgent(db);
  const l = await insertListing(db, agent.id, listing);
  const campaignId = await insertDraftCampaign(db, { id: l.id, agentId: agent.id, mlsId: l.mlsId }, campaign);
  return { campaignId, agentId: agent.id, listingId: l.id, mlsId: l.mlsId };
}

/**
 * For delivery tests: a manual agent with an email (verified unless `verified: false`: email with content goes only
 * to a verified address, DESIGN §3) and a listing of theirs with a postal code, bathrooms and square feet.
 */
export async function agentWithListing(db: Db, opts: { email?: string | null; verified?: boolean } = {}) {
  const email = opts.email === undefined ? `dana-${crypto.randomBytes(4).toString('hex')}@example.com` : opts.email;
  const agent = await insertAgent(db, { email, source: 'manual', verifiedAt: opts.verified === false ? null : new Date() });
  const listing = await insertListing(db, agent.id, { postalCode: '33602', bathrooms: 2, squareFeet: 1850, imageUrl: null, images: JSON.stringify([]) });
  return { agent, listing };
}

/** A lead row for the agent's listing, and the hand-over the leads module would make of it (for the notifications module). */
export async function insertLead(db: Db, agent: { id: number }, listing: { id: number; mlsId: string }, overrides: Partial<LeadForDelivery> = {}): Promise<LeadForDelivery> {
  const [row] = await db('leads')
    .insert({ listingId: listing.id, agentId: agent.id, name: overrides.name ?? 'Jamie Buyer', email: overrides.email ?? 'jamie@example.com', phone: '8135550101', message: 'Is it still available?', interestedInTour: true })
    .returning('*');
  return {
    id: row.id,
    agentId: agent.id,
    listingId: listing.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    message: row.message,
    source: row.source,
    interestedInTour: row.interestedInTour,
    interestedInSimilar: row.interestedInSimilar,
    createdAt: row.createdAt,
    listing: { mlsId: listing.mlsId, address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', price: '450000', bedrooms: 3, bathrooms: '2.0', squareFeet: 1850, imageUrl: null },
    ...overrides,
  };
}

/** Poll a condition with a deadline (no fixed sleeps: jobs run in pg-boss's workers): resolves with the first truthy value. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

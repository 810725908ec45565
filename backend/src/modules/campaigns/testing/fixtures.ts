import crypto from 'node:crypto';
import type { Db } from '../../../platform/db/knex';

/**
 * Test data for the launch and metrics tests: an agent, a listing and a draft campaign, written
 * straight to the tables with sensible defaults (the wizard's API is tested elsewhere).
 */
export async function insertDraftCampaign(
  db: Db,
  campaign: Record<string, unknown> = {},
  listing: Record<string, unknown> = {},
): Promise<{ campaignId: number; agentId: number; listingId: number; mlsId: string }> {
  const [agent] = await db('agents').insert({ name: 'Dana Whitfield', state: 'FL' }).returning('id');
  const mlsId = `T${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  const [l] = await db('listings')
    .insert({
      agentId: agent.id,
      mlsId,
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
      ...listing,
    })
    .returning('id');
  const [c] = await db('campaigns')
    .insert({
      agentId: agent.id,
      listingId: l.id,
      agentName: 'Dana Whitfield',
      agentBrokerage: 'Gulf Coast Realty',
      state: 'FL',
      mlsListingId: mlsId,
      templateType: 'just-listed',
      adFormat: 'single',
      headline: 'Amazing Property in Tampa',
      description: 'Sunny 3-bed home with a pool. Schedule a tour today.',
      subtitle: 'Looking to buy, rent or sell?',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers',
      imageUrl: '/demo-mls/photos/exterior-01.jpg',
      carouselImages: JSON.stringify([]),
      link: `https://app.example.com/listing/${mlsId}`,
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
      ...campaign,
    })
    .returning('id');
  await db('campaignTransitions').insert({ campaignId: c.id, fromStatus: null, toStatus: 'draft', reason: 'created' });
  return { campaignId: c.id, agentId: agent.id, listingId: l.id, mlsId };
}

/** Poll a condition with a deadline (no fixed sleeps): resolves with the first truthy value. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

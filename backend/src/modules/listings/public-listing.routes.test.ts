import { listingResponseSchema, publicCampaignSchema } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { insertListingWithDraftCampaign } from '../../../test/factories';
import { markCampaignPaid } from '../campaigns';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function pay(campaignId: number) {
  await t.db.transaction((trx) => markCampaignPaid(trx, t.queue, campaignId, 'test payment'));
}

describe('GET /api/listings/:mlsId', () => {
  it('answers the listing, its agent and the MLS compliance block, public fields only', async () => {
    const { agentId, mlsId } = await insertListingWithDraftCampaign(t.db, {}, {
      postalCode: '33602',
      squareFeet: 1800,
      lotSizeSqFt: 10890,
      lotSize: '0.25',
      amenities: JSON.stringify({ heating: ['Central'], appliances: ['Dishwasher', 'Range'], fireplace: true, associationFeeAnnual: 1200.4 }),
      mlsCompliance: JSON.stringify({ mlsName: 'Stellar MLS', brokerage: 'Bay Realty', broker: 'Pat Broker', disclaimer: 'Deemed reliable.' }),
    });
    await t.db('agents').where({ id: agentId }).update({
      email: 'dana@example.com',
      phone: '8135550142',
      passwordHash: '$argon2id$v=19$secret-hash',
    });
    // Notification settings live in the notifications module's table; none of them may leak here.
    await t.db('notificationSettings').insert({
      agentId,
      webhookUrl: 'https://hooks.example.com/secret-path',
      webhookSecretEnc: 'enc-secret-value',
      crmType: 'followupboss',
      crmApiKeyEnc: 'enc-crm-key',
      zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/123/abc',
    });
    const res = await t.request.get(`/api/listings/${mlsId}`).expect(200);
    const body = listingResponseSchema.parse(res.body);
    expect(body.listing).toMatchObject({
      mlsId,
      price: '450000',
      address: '12 Palm Ave',
      postalCode: '33602',
      photos: ['/demo-mls/photos/exterior-01.jpg', '/demo-mls/photos/kitchen-01.jpg'],
      heating: ['Central'],
      appliances: ['Dishwasher', 'Range'],
      fireplace: true,
      hoaFee: 1200,
      cooling: [],
    });
    expect(body.agent).toEqual({
      id: agentId,
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phone: '8135550142',
      // Formatted and dialable by the server (libphonenumber-js): the page ships no phone library.
      phoneLink: { display: '(813) 555-0142', href: 'tel:+18135550142' },
      brokerage: null,
      mlsId: null,
      state: 'FL',
      profileImageUrl: null,
      logoUrl: null,
    });
    expect(body.mlsCompliance).toEqual({ logo: null, mlsName: 'Stellar MLS', disclaimer: 'Deemed reliable.', brokerage: 'Bay Realty', broker: 'Pat Broker' });
    // Nothing private leaks, under any key.
    const text = JSON.stringify(res.body);
    for (const secret of ['secret-hash', 'secret-path', 'enc-secret-value', 'enc-crm-key', 'hooks.zapier.com', 'password', 'webhook', 'Notifications']) {
      expect(text).not.toContain(secret);
    }
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('answers 304 to a matching If-None-Match, and 200 again once the listing changed', async () => {
    const { mlsId, listingId } = await insertListingWithDraftCampaign(t.db);
    const first = await t.request.get(`/api/listings/${mlsId}`).expect(200);
    const again = await t.request.get(`/api/listings/${mlsId}`).set('If-None-Match', first.headers.etag).expect(304);
    expect(again.text).toBe('');
    await t.db('listings').where({ id: listingId }).update({ priceCents: 46_000_000, updatedAt: new Date() });
    const changed = await t.request.get(`/api/listings/${mlsId}`).set('If-None-Match', first.headers.etag).expect(200);
    expect(changed.body.listing.price).toBe('460000');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it('answers 404 for an unknown listing and 400 for an id that cannot be one', async () => {
    const missing = await t.request.get('/api/listings/NOPE123').expect(404);
    expect(missing.body).toMatchObject({ code: 'listings.not_found', message: 'Listing not found' });
    expect(missing.headers.etag).toBeUndefined();
    const bad = await t.request.get(`/api/listings/${encodeURIComponent('bad id<script>')}`).expect(400);
    expect(bad.body.fields).toEqual({ mlsId: 'Invalid MLS ID' });
  });

  it("one listing, one agent: the listing agent's, whoever pays; until its identity is verified, with the contact the MLS publishes", async () => {
    // An MLS identity nobody verified: its own columns were edited (say, by an admin); the MLS publishes others.
    const [agent] = await t
      .db('agents')
      .insert({
        name: 'Michael Chen', state: 'CA', source: 'mls', mlsSystem: 'demo', mlsId: `CA-${Date.now()}`,
        email: 'edited@stranger.example', phone: '(555) 010-9999', brokerage: 'Stranger Realty', profileImageUrl: '/objects/uploads/planted',
        mlsName: 'Michael Chen', mlsEmail: 'michael.chen@goldencoast.example', mlsPhone: '(408) 555-0187', mlsBrokerage: 'Golden Coast Properties',
      })
      .returning('id');
    const { mlsId, campaignId } = await insertListingWithDraftCampaign(t.db);
    await t.db('listings').where({ mlsId }).update({ agentId: agent.id });
    await t.db('campaigns').where({ id: campaignId }).update({ agentId: agent.id });
    const mls = { id: agent.id, name: 'Michael Chen', email: 'michael.chen@goldencoast.example', phone: '(408) 555-0187', brokerage: 'Golden Coast Properties', profileImageUrl: null, logoUrl: null };
    expect((await t.request.get(`/api/listings/${mlsId}`).expect(200)).body.agent).toMatchObject(mls);

    // A campaign paid for it (by anyone) leaves the page with the listing agent.
    await pay(campaignId);
    expect((await t.request.get(`/api/listings/${mlsId}`).expect(200)).body.agent).toMatchObject(mls);
    // There is no second row to move it to: one row per MLS listing.
    const [other] = await t.db('agents').insert({ name: 'Riley Second', state: 'FL' }).returning('id');
    await expect(t.db('listings').insert({ agentId: other.id, mlsId, address: '12 Palm Ave', city: 'Tampa', state: 'FL', priceCents: 1, status: 'active' })).rejects.toThrow(/listings_mls_listing_unique/);

    // Once an owner verified the identity, the page shows the agent's own branding and contact.
    await t.db('agents').where({ id: agent.id }).update({ verifiedAt: new Date(), email: 'michael.chen@goldencoast.example', phone: '(408) 555-0100' });
    expect((await t.request.get(`/api/listings/${mlsId}`).expect(200)).body.agent).toMatchObject({ id: agent.id, phone: '(408) 555-0100', profileImageUrl: '/objects/uploads/planted' });
  });
});

describe('GET /api/listings/:mlsId/campaign', () => {
  it('is null until a campaign is paid for, then its public part', async () => {
    const { mlsId, campaignId } = await insertListingWithDraftCampaign(t.db);
    const draft = await t.request.get(`/api/listings/${mlsId}/campaign`).expect(200);
    expect(draft.type).toBe('application/json');
    expect(draft.body).toBeNull();

    await pay(campaignId);
    const paid = await t.request.get(`/api/listings/${mlsId}/campaign`).expect(200);
    expect(publicCampaignSchema.parse(paid.body)).toEqual({
      id: campaignId,
      headline: 'Amazing Property in Tampa',
      description: 'Sunny 3-bed home with a pool. Schedule a tour today.',
      imageUrl: '/demo-mls/photos/exterior-01.jpg',
      status: 'paid',
    });
    expect(Object.keys(paid.body).sort()).toEqual(['description', 'headline', 'id', 'imageUrl', 'status']);
    await t.request.get(`/api/listings/${mlsId}/campaign`).set('If-None-Match', paid.headers.etag).expect(304);
  });

  it('answers 404 for an unknown listing', async () => {
    await t.request.get('/api/listings/NOPE123/campaign').expect(404);
  });
});

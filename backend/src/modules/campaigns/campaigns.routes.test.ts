import { HOUSING_TARGETING_REJECTED, listingPagePath } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { campaignDraftBody, wizardBrowser, type Session } from '../../../test/factories';
import { transitionCampaign } from './campaign-transitions';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());


/** A wizard browser: a manual agent and one of its listings (two photos), made through the API. */
const wizard = (session: Session = t.newSession(), name = 'Dana Whitfield') =>
  wizardBrowser(session, { name, listing: { images: ['https://photos.example.com/1.jpg', 'https://photos.example.com/2.jpg'] } });

/** The wizard's draft body with "Learn more" and no status field (undefined is left out of the JSON sent). */
const payload = (agentId: number, listingId: number, extra: Record<string, unknown> = {}) =>
  campaignDraftBody(agentId, listingId, { callToAction: 'Learn more', status: undefined, ...extra });

const imgs = (n: number) => Array.from({ length: n }, (_, i) => `https://photos.example.com/${i}.jpg`);

describe('POST /api/campaigns', () => {
  it('refuses an ad without a headline or ad text (400 with field messages), on create and on edit', async () => {
    const { session, agent, listing } = await wizard();
    const empty = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { headline: ' ', description: '' })).expect(400);
    expect(empty.body.fields).toEqual({ headline: 'Headline is required', description: 'Ad text is required' });
    // The wizard's failure text is never ad copy.
    const failed = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { description: 'Unable to generate optimized copy' })).expect(400);
    expect(Object.keys(failed.body.fields)).toEqual(['description']);
    expect(await t.db('campaigns').where({ listingId: listing.id })).toHaveLength(0);

    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    const edit = await session.patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id, { description: null })).expect(400);
    expect(edit.body.fields).toEqual({ description: 'Ad text is required' });
    expect(await t.db('campaigns').where({ id: created.id }).first()).toMatchObject({ description: 'Sunny 3-bed home with a pool. Schedule a tour today.' });
  });

  it('refuses a single-image draft when neither the draft nor the listing has a photo', async () => {
    const session = t.newSession();
    const { body: agent } = await session.post('/api/agents').send({ name: 'No Photo', state: 'FL', manualEntry: true }).expect(201);
    const { body: listing } = await session
      .post('/api/listings')
      .send({ agentId: agent.id, address: '1 Bare St', city: 'Tampa', state: 'FL', price: '300000', bedrooms: 2, bathrooms: '1.0', squareFeet: 900, status: 'active', imageUrl: null, images: [] })
      .expect(201);
    const res = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { imageUrl: null })).expect(400);
    expect(res.body.fields).toEqual({ imageUrl: 'Add a photo of the property: an ad needs a picture.' });
    expect(await t.db('campaigns').where({ listingId: listing.id })).toHaveLength(0);
  });

  it("keeps the agent's brokerage for the ad, and a later save takes the brokerage added at branding", async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    expect(await t.db('campaigns').where({ id: created.id }).first()).toMatchObject({ agentName: 'Dana Whitfield', agentBrokerage: null });
    await session.put(`/api/agents/${agent.id}`).send({ name: 'Dana Whitfield', email: null, phone: null, brokerage: 'Gulf Coast Realty', profileImageUrl: null, logoUrl: null }).expect(200);
    await session.patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id)).expect(200);
    expect(await t.db('campaigns').where({ id: created.id }).first()).toMatchObject({ agentBrokerage: 'Gulf Coast Realty' });
  });

  it('reads back the listing mlsId for the public page link', async () => {
    const { session, agent, listing } = await wizard();
    const { body } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    expect(body.listingMlsId).toBe(listing.mlsId);
  });

  it('creates a draft: the server computes impressions and the amount from the budget', async () => {
    const { session, agent, listing } = await wizard();
    const res = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { price: '299', impressions: 999999 })).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      agentId: agent.id,
      listingId: listing.id,
      listingMlsId: listing.mlsId,
      templateType: 'just-listed',
      adFormat: 'single',
      headline: 'Amazing Property in Tampa',
      description: 'Sunny 3-bed home with a pool. Schedule a tour today.',
      subtitle: 'Looking to buy, rent or sell?',
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)',
      impressions: 15000,
      impressionsRequested: 15000,
      price: '299',
      status: 'draft',
      imageUrl: 'https://photos.example.com/1.jpg',
      carouselImages: [],
      link: 'https://agent.example.com/listing/12-palm',
      targetingLocation: null,
      targetingInterests: [],
      targetingTemplate: null,
      facebookCampaignId: null,
      launchError: null,
      createdAt: expect.any(String),
    });
    const row = await t.db('campaigns').where({ id: res.body.id }).first();
    expect(row).toMatchObject({ budgetCents: 29900, impressionsRequested: 15000, agentName: 'Dana Whitfield', state: 'FL', mlsListingId: listing.mlsId });
    const transitions = await t.db('campaignTransitions').where({ campaignId: res.body.id });
    expect(transitions).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'draft', reason: 'created' })]);
  });

  it('takes the pricing step draft: impressionsRequested ignored, status draft, targeting stored', async () => {
    const { session, agent, listing } = await wizard();
    const targeting = {
      targetingLocation: { city: 'Tampa', state: 'FL', radius: 35 },
      targetingInterests: [{ id: 'zillow', name: 'Zillow', enabled: true }, { id: 'trulia', name: 'Trulia', enabled: false }],
      targetingTemplate: 'buyers',
    };
    const res = await session
      .post('/api/campaigns')
      .send(payload(agent.id, listing.id, { price: 999, impressionsRequested: '5', status: 'draft', ...targeting }))
      .expect(201);
    expect(res.body).toMatchObject({ status: 'draft', price: '999', impressions: 50000, impressionsRequested: 50000, ...targeting });
    const row = await t.db('campaigns').where({ id: res.body.id }).first();
    expect(row.targeting).toEqual(targeting);
    const read = await session.get(`/api/campaigns/${res.body.id}`).expect(200);
    expect(read.body).toMatchObject(targeting);
  });

  it('fills what the wizard leaves empty: call to action, audience, the listing photo and page', async () => {
    const { session, agent, listing } = await wizard();
    const res = await session
      .post('/api/campaigns')
      .send({ agentId: agent.id, listingId: listing.id, templateType: 'just-listed', headline: 'Amazing Property in Tampa', description: 'Bright corner lot.', price: '99' })
      .expect(201);
    expect(res.body).toMatchObject({
      callToAction: 'Learn more',
      targetAudience: 'Local Home Buyers (25-55)',
      imageUrl: 'https://photos.example.com/1.jpg',
      link: listingPagePath(listing.mlsId),
      impressions: 5000,
    });
  });

  it.each([
    ['149', 201, 7500],
    ['150', 400, null],
    ['1049', 400, null],
    ['49', 400, null],
  ])('budget %s → %i', async (price, status, impressions) => {
    const { session, agent, listing } = await wizard();
    const res = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { price })).expect(status);
    if (impressions) expect(res.body.impressions).toBe(impressions);
    else expect(res.body.fields).toEqual({ price: 'Budget must be between $99 and $999 in steps of $50' });
  });

  describe('carousel', () => {
    it('needs 2 to 10 images', async () => {
      const { session, agent, listing } = await wizard();
      const one = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { adFormat: 'carousel', carouselImages: imgs(1) })).expect(400);
      expect(one.body).toMatchObject({ message: 'Carousel ads require at least 2 images', fields: { carouselImages: 'Carousel ads require at least 2 images' } });
      const eleven = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { adFormat: 'carousel', carouselImages: imgs(11) })).expect(400);
      expect(eleven.body.fields).toEqual({ carouselImages: 'Carousel ads allow at most 10 images' });
      const two = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { adFormat: 'carousel', carouselImages: imgs(2) })).expect(201);
      expect(two.body.carouselImages).toEqual(imgs(2));
      const ten = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { adFormat: 'carousel', carouselImages: imgs(10) })).expect(201);
      expect(ten.body.carouselImages).toHaveLength(10);
    });

    it('keeps no carousel images on a single-image ad', async () => {
      const { session, agent, listing } = await wizard();
      const res = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { adFormat: 'single', carouselImages: imgs(3) })).expect(201);
      expect(res.body.carouselImages).toEqual([]);
    });

    it('rejects image references that are not http(s) or uploads', async () => {
      const { session, agent, listing } = await wizard();
      const res = await session
        .post('/api/campaigns')
        .send(payload(agent.id, listing.id, { adFormat: 'carousel', carouselImages: ['javascript:alert(1)', 'https://photos.example.com/a.jpg'] }))
        .expect(400);
      expect(Object.keys(res.body.fields)).toEqual(['carouselImages.0']);
    });
  });

  it.each(['javascript:alert(1)', 'ftp://example.com/x', 'data:text/html,hi', '//evil.example.com', 'not a url'])('rejects the link %p', async (link) => {
    const { session, agent, listing } = await wizard();
    const res = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { link })).expect(400);
    expect(res.body.fields).toEqual({ link: 'Link must be a valid http or https URL' });
  });

  it('accepts http and https links', async () => {
    const { session, agent, listing } = await wizard();
    await session.post('/api/campaigns').send(payload(agent.id, listing.id, { link: 'http://agent.example.com/x' })).expect(201);
    await session.post('/api/campaigns').send(payload(agent.id, listing.id, { link: 'https://agent.example.com/x' })).expect(201);
  });

  it('rejects bad enums, lengths and a non-draft status', async () => {
    const { session, agent, listing } = await wizard();
    const res = await session
      .post('/api/campaigns')
      .send(payload(agent.id, listing.id, { templateType: 'coming-soon', adFormat: 'video', status: 'active', headline: 'h'.repeat(256), subtitle: 's'.repeat(256) }))
      .expect(400);
    expect(res.body.fields).toEqual({
      templateType: 'Template type must be just-listed or just-sold',
      adFormat: 'Ad format must be single or carousel',
      status: 'A new campaign can only be a draft',
      headline: 'Must be at most 255 characters',
      subtitle: 'Must be at most 255 characters',
    });
  });

  it('rejects age, gender and ZIP targeting (housing ads) and radii under 15 miles', async () => {
    const { session, agent, listing } = await wizard();
    const res = await session
      .post('/api/campaigns')
      .send(payload(agent.id, listing.id, { targetingLocation: { city: 'Tampa', state: 'FL', radius: 25, age: '25-55', zip: '33602' } }))
      .expect(400);
    expect(res.body.fields).toEqual({ 'targetingLocation.age': HOUSING_TARGETING_REJECTED, 'targetingLocation.zip': HOUSING_TARGETING_REJECTED });
    const gender = await session
      .post('/api/campaigns')
      .send(payload(agent.id, listing.id, { targetingInterests: [{ id: 'x', name: 'X', enabled: true, gender: 'female' }] }))
      .expect(400);
    expect(gender.body.fields).toEqual({ 'targetingInterests.0.gender': HOUSING_TARGETING_REJECTED });
    const radius = await session.post('/api/campaigns').send(payload(agent.id, listing.id, { targetingLocation: { city: 'Tampa', state: 'FL', radius: 10 } })).expect(400);
    expect(radius.body.fields).toEqual({ 'targetingLocation.radius': 'Radius must be one of 15, 25, 35 or 50 miles' });
    expect(await t.db('campaigns').where({ agentId: agent.id }).count('* as n').first()).toEqual({ n: '0' });
  });

  describe('ownership', () => {
    it('another session cannot create a campaign for someone else\u2019s agent', async () => {
      const { agent, listing } = await wizard();
      const res = await t.newSession().post('/api/campaigns').send(payload(agent.id, listing.id)).expect(404);
      expect(res.body.code).toBe('agents.not_found');
    });

    it('the listing must belong to the agent', async () => {
      const { session, agent } = await wizard();
      const { listing: otherListing } = await wizard(session, 'Sam Other');
      const res = await session.post('/api/campaigns').send(payload(agent.id, otherListing.id)).expect(404);
      expect(res.body.code).toBe('listings.not_found');
    });

    it('unknown agent or listing is a 404', async () => {
      const { session, agent, listing } = await wizard();
      expect((await session.post('/api/campaigns').send(payload(agent.id, 999999)).expect(404)).body.code).toBe('listings.not_found');
      expect((await session.post('/api/campaigns').send(payload(999999, listing.id)).expect(404)).body.code).toBe('agents.not_found');
    });
  });
});

describe('GET /api/campaigns/:id', () => {
  it('gives the owner the campaign, a stranger a 404 that tells nothing', async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    const own = await session.get(`/api/campaigns/${created.id}`).expect(200);
    expect(own.body).toEqual(created);
    const stranger = await t.newSession().get(`/api/campaigns/${created.id}`).expect(404);
    // The same answer as for a campaign that does not exist.
    expect(stranger.body).toEqual((await t.newSession().get('/api/campaigns/99999999').expect(404)).body);
  });

  it('stays with the browser that created it once the agent has an account; another wizard browser of the agent, and the campaigns it did not create, 404', async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    expect((await t.db('campaigns').where({ id: created.id }).first()).createdByBrowser).toMatch(/^[0-9a-f]{64}$/);
    await t.db('agents').where({ id: agent.id }).update({ passwordHash: '$argon2id$stub-for-test', email: 'dana@example.com', verifiedAt: new Date() });
    await session.get(`/api/campaigns/${created.id}`).expect(200);
    await session.patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id, { headline: 'Still mine' })).expect(200);
    // A copy of the agent's wizard access in another browser (its own key): not this campaign.
    const { sid } = await t.db('sessions').whereRaw(`data->'wizardAgentIds' @> to_jsonb(?::int)`, [agent.id]).first();
    const row = await t.db('sessions').where({ sid }).first();
    await t.db('sessions').insert({ sid: 'another-wizard', data: JSON.stringify({ ...row.data, browserKey: 'another-browser-key-0123456789' }), expiresAt: row.expiresAt });
    const crypto = await import('node:crypto');
    const sig = crypto.createHmac('sha1', t.config.SESSION_SECRET!).update('la.sid=another-wizard').digest('base64').replace(/\/|\+|=/g, (x) => ({ '/': '_', '+': '-', '=': '' })[x]!);
    await t.request.get(`/api/campaigns/${created.id}`).set('Cookie', `la.sid=another-wizard; la.sid.sig=${sig}`).expect(404);
  });

  it('is a 404 for an unknown campaign and a 400 for a bad id', async () => {
    expect((await t.request.get('/api/campaigns/999999').expect(404)).body).toEqual({ message: 'Campaign not found', code: 'campaigns.not_found' });
    expect((await t.request.get('/api/campaigns/abc').expect(400)).body.fields).toEqual({ id: 'Must be a positive whole number' });
  });
});

describe('PATCH /api/campaigns/:id', () => {
  it('replaces the draft, recomputing impressions', async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    const res = await session
      .patch(`/api/campaigns/${created.id}`)
      .send(payload(agent.id, listing.id, { headline: 'Just Listed in Tampa', price: '299', impressionsRequested: 1, status: 'draft', targetingTemplate: 'financing' }))
      .expect(200);
    expect(res.body).toMatchObject({ id: created.id, headline: 'Just Listed in Tampa', price: '299', impressions: 15000, status: 'draft', targetingTemplate: 'financing' });
    expect((await session.get(`/api/campaigns/${created.id}`)).body.headline).toBe('Just Listed in Tampa');
  });

  it('keeps the saved draft when a later save is invalid', async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    await session.patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id, { price: '400' })).expect(400);
    expect((await session.get(`/api/campaigns/${created.id}`).expect(200)).body).toEqual(created);
  });

  it('is refused to a stranger, and for a campaign that has been paid', async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    const stranger = await t.newSession().patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id)).expect(404);
    expect(stranger.body.code).toBe('campaigns.not_found');

    expect(await transitionCampaign(t.db, created.id, ['draft'], 'paid', 'paid')).toBe(true);
    const res = await session.patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id, { headline: 'Changed' })).expect(409);
    expect(res.body).toMatchObject({ code: 'campaigns.not_draft', campaignStatus: 'paid' });
    expect((await session.get(`/api/campaigns/${created.id}`)).body).toMatchObject({ headline: created.headline, status: 'paid' });
  });

  it('back from checkout (pending_payment): the same campaign is edited and becomes a draft again', async () => {
    const { session, agent, listing } = await wizard();
    const { body: created } = await session.post('/api/campaigns').send(payload(agent.id, listing.id)).expect(201);
    expect(await transitionCampaign(t.db, created.id, ['draft'], 'pending_payment', 'checkout')).toBe(true);
    const res = await session.patch(`/api/campaigns/${created.id}`).send(payload(agent.id, listing.id, { headline: 'Changed' })).expect(200);
    expect(res.body).toMatchObject({ id: created.id, headline: 'Changed', status: 'draft' });
    const moves = await t.db('campaignTransitions').where({ campaignId: created.id }).orderBy('id').select('fromStatus', 'toStatus');
    expect(moves.slice(-2)).toEqual([
      { fromStatus: 'draft', toStatus: 'pending_payment' },
      { fromStatus: 'pending_payment', toStatus: 'draft' },
    ]);
    expect(await t.db('campaigns').where({ agentId: agent.id }).count('* as n').first()).toEqual({ n: '1' });
  });

  it('is a 404 for an unknown campaign', async () => {
    const { session, agent, listing } = await wizard();
    expect((await session.patch('/api/campaigns/999999').send(payload(agent.id, listing.id)).expect(404)).body.code).toBe('campaigns.not_found');
  });
});

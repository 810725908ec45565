import nock from 'nock';
import { Webhook } from 'standardwebhooks';
import { box, config, ctx, data, message, NOW } from '../testing/channel-fixtures';
import { toLeadDelivery } from '../delivery/lead-deliveries';
import { webhookChannel } from './webhook.channel';
import { zapierChannel } from './zapier.channel';
import { crmChannel } from './crm.channel';

/**
 * Each channel against its receiver's documented HTTP shape, with nock. The channels are handed a client
 * over global fetch here (nock intercepts it); the SSRF-safe client itself is tested in ssrf.test.ts.
 */

beforeAll(() => {
  nock.disableNetConnect();
});

/** Intercept one POST and keep its headers and exact body text. */
function capture(origin: string, path: string, status: number, reply: string | object = '', replyHeaders: Record<string, string> = {}) {
  const seen = { headers: {} as Record<string, string>, body: '' };
  const names = ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'authorization'];
  nock(origin, {
    reqheaders: Object.fromEntries(
      names.map((n) => [
        n,
        (v: string | null) => {
          if (v !== null) seen.headers[n] = v;
          return true;
        },
      ]),
    ),
    badheaders: [],
  })
    .post(path, (b) => {
      seen.body = typeof b === 'string' ? b : JSON.stringify(b);
      return true;
    })
    .reply(status, reply, replyHeaders);
  return seen;
}
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('custom webhook (Standard Webhooks)', () => {
  it('posts {type, timestamp, data} with webhook-id, webhook-timestamp and a signature the verifier accepts', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const seen = capture('https://hooks.example.com', '/leads', 200, 'ok');
    const out = await webhookChannel.deliver(message, ctx({ webhookUrl: 'https://hooks.example.com/leads', webhookSecretEnc: box.seal(secret) }));
    expect(out.error).toBeNull();
    expect(out).toMatchObject({ ok: true, statusCode: 200, responseBody: 'ok', target: 'https://hooks.example.com/leads' });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
      'webhook-timestamp': String(NOW.getTime() / 1000),
    });
    expect(seen.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(seen.body).toBe(JSON.stringify({ type: 'lead.created', timestamp: '2026-11-24T14:59:59.000Z', data }));
    // The verifier checks the timestamp against its clock: verify as of the send time.
    jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'] });
    try {
      expect(new Webhook(secret).verify(seen.body, seen.headers)).toEqual(JSON.parse(seen.body));
      expect(() => new Webhook(secret).verify(seen.body.replace('Jamie', 'Jimmy'), seen.headers)).toThrow();
    } finally {
      jest.useRealTimers();
    }
    expect(data.listing.url).toBe('https://www.listingads.example/listing/MLS-123');
  });

  it('every URL in a payload is absolute, from PUBLIC_URL: our own photo paths and the manual listing page too', () => {
    const own = toLeadDelivery(config, {
      id: 42, agentId: 7, listingId: 4, name: 'Jo', email: 'jo@example.com', phone: null, message: null, source: 'property_page',
      interestedInTour: false, interestedInSimilar: false, createdAt: '2026-11-24T14:59:59.000Z',
      listing: { mlsId: 'MANUAL-1764000000000', address: '1 Bay St', city: 'Tampa', state: 'FL', postalCode: null, price: '300000', bedrooms: null, bathrooms: null, squareFeet: null, imageUrl: '/objects/uploads/0b6c3a52-3f1e-4c2a-9a57-1d7c2e4a9b10' },
    });
    expect(own.listing.imageUrl).toBe('https://www.listingads.example/objects/uploads/0b6c3a52-3f1e-4c2a-9a57-1d7c2e4a9b10');
    expect(own.listing.url).toBe('https://www.listingads.example/manual-listing/MANUAL-1764000000000');
    const urls: string[] = [];
    JSON.stringify(own, (_key, value: unknown) => {
      if (typeof value === 'string' && /(^\/|:\/\/)/.test(value)) urls.push(value);
      return value;
    });
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^https:\/\/www\.listingads\.example\//);
    // An outside photo stays as it is.
    expect(data.listing.imageUrl).toBe('https://photos.example.com/1.jpg');
  });

  it('signs with a typed non-whsec secret as its raw bytes', async () => {
    const seen = capture('https://hooks.example.com', '/leads', 204);
    await webhookChannel.deliver(message, ctx({ webhookUrl: 'https://hooks.example.com/leads', webhookSecretEnc: box.seal('my own secret') }));
    const raw = new Webhook(new TextEncoder().encode('my own secret'), { format: 'raw' });
    expect(seen.headers['webhook-signature']).toBe(raw.sign(seen.headers['webhook-id'], NOW, seen.body));
    expect(seen.headers['webhook-id']).toBe(message.webhookId);
  });

  it('classifies answers: 3xx fails without following, 410 is gone, Retry-After is read', async () => {
    const settings = { webhookUrl: 'https://hooks.example.com/leads', webhookSecretEnc: box.seal('s') };
    nock('https://hooks.example.com').post('/leads').reply(302, '', { Location: 'http://127.0.0.1/' });
    expect(await webhookChannel.deliver(message, ctx(settings))).toMatchObject({ ok: false, statusCode: 302, error: 'Receiver answered 302 (redirects are not followed)' });
    nock('https://hooks.example.com').post('/leads').reply(410, 'bye');
    expect(await webhookChannel.deliver(message, ctx(settings))).toMatchObject({ ok: false, gone: true, statusCode: 410 });
    nock('https://hooks.example.com').post('/leads').reply(503, 'x'.repeat(5000), { 'Retry-After': 'Tue, 24 Nov 2026 15:02:00 GMT' });
    const busy = await webhookChannel.deliver(message, ctx(settings));
    expect(busy).toMatchObject({ ok: false, statusCode: 503, retryAfterSeconds: 120 });
    expect(busy.responseBody).toHaveLength(1024);
  });
});

describe('Zapier catch hook', () => {
  it('posts a flat JSON object with clear keys', async () => {
    const seen = capture('https://hooks.zapier.com', '/hooks/catch/123/abc/', 200, { status: 'success', attempt: 'a1', id: 'z1', request_id: 'r1' });
    const out = await zapierChannel.deliver({ ...message, channel: 'zapier' }, ctx({ zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/123/abc/' }));
    expect(out).toMatchObject({ ok: true, statusCode: 200, target: 'https://hooks.zapier.com/hooks/…' });
    expect(seen.headers['content-type']).toBe('application/json');
    const body = JSON.parse(seen.body);
    expect(body).toEqual({
      event: 'lead.created',
      event_id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
      occurred_at: '2026-11-24T14:59:59.000Z',
      agent_id: 7,
      lead_id: 41,
      lead_name: 'Jamie Q. Buyer',
      lead_email: 'jamie@example.com',
      lead_phone: '8135550101',
      lead_message: 'Is it still available?',
      lead_source: 'property_page',
      interested_in_tour: true,
      interested_in_similar: false,
      lead_created_at: '2026-11-24T14:59:59.000Z',
      listing_id: 3,
      listing_mls_id: 'MLS-123',
      listing_address: '12 Palm Ave',
      listing_city: 'Tampa',
      listing_state: 'FL',
      listing_postal_code: '33602',
      listing_price: '450000',
      listing_bedrooms: 3,
      listing_bathrooms: '2.0',
      listing_square_feet: 1850,
      listing_image_url: 'https://photos.example.com/1.jpg',
      listing_url: 'https://www.listingads.example/listing/MLS-123',
    });
    expect(Object.values(body as object).every((v) => typeof v !== 'object')).toBe(true);
  });
});

describe('Follow Up Boss (Events API)', () => {
  const fub = { crmType: 'followupboss' as const, crmApiKeyEnc: box.seal('fka_0123456789') };
  const expectedEvent = {
    source: 'listingads.example',
    system: 'ListingAds',
    type: 'Property Inquiry',
    message: 'Is it still available?',
    description: 'Buyer would like a tour.',
    occurredAt: '2026-11-24T14:59:59.000Z',
    person: {
      firstName: 'Jamie Q.',
      lastName: 'Buyer',
      emails: [{ value: 'jamie@example.com' }],
      phones: [{ value: '8135550101' }],
      tags: ['Listing Ads', 'Tour Request'],
    },
    property: {
      street: '12 Palm Ave',
      city: 'Tampa',
      state: 'FL',
      code: '33602',
      mlsNumber: 'MLS-123',
      price: 450000,
      forRent: false,
      url: 'https://www.listingads.example/listing/MLS-123',
      bedrooms: 3,
      bathrooms: 2,
      area: 1850,
    },
  };

  it('posts a Property Inquiry with Basic auth (API key as username) and X-System headers; 201 is a new person', async () => {
    const scope = nock('https://api.followupboss.com', {
      reqheaders: {
        authorization: `Basic ${Buffer.from('fka_0123456789:').toString('base64')}`,
        'x-system': 'ListingAds',
        'x-system-key': 'sys-key-1',
        'content-type': 'application/json',
      },
    })
      .post('/v1/events', expectedEvent)
      .reply(201, { id: 1001, firstName: 'Jamie Q.', lastName: 'Buyer' });
    const out = await crmChannel.deliver({ ...message, channel: 'crm' }, ctx(fub));
    expect(out).toMatchObject({ ok: true, statusCode: 201, warning: null, target: 'https://api.followupboss.com/v1/events' });
    expect(scope.isDone()).toBe(true);
  });

  it('200 (existing person updated) succeeds; 204 (lead source archived) succeeds with a warning', async () => {
    nock('https://api.followupboss.com').post('/v1/events').reply(200, { id: 1001 });
    expect(await crmChannel.deliver({ ...message, channel: 'crm' }, ctx(fub))).toMatchObject({ ok: true, statusCode: 200, warning: null });
    nock('https://api.followupboss.com').post('/v1/events').reply(204);
    const archived = await crmChannel.deliver({ ...message, channel: 'crm' }, ctx(fub));
    expect(archived).toMatchObject({ ok: true, statusCode: 204 });
    expect(archived.warning).toMatch(/archived/);
  });

  it('429 fails with Retry-After for the next attempt; 401 fails', async () => {
    nock('https://api.followupboss.com').post('/v1/events').reply(429, { errorMessage: 'Rate limit exceeded' }, { 'Retry-After': '10' });
    expect(await crmChannel.deliver({ ...message, channel: 'crm' }, ctx(fub))).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 10 });
    nock('https://api.followupboss.com').post('/v1/events').reply(401, { errorMessage: 'Invalid API key' });
    expect(await crmChannel.deliver({ ...message, channel: 'crm' }, ctx(fub))).toMatchObject({ ok: false, statusCode: 401, gone: false, permanent: false });
  });
});

describe('Other CRM (JSON webhook)', () => {
  it('posts the lead as JSON with the key as a Bearer token', async () => {
    const scope = nock('https://crm.example.com', { reqheaders: { authorization: 'Bearer crm-key-9', 'webhook-id': message.webhookId } })
      .post('/in/token', { type: 'lead.created', timestamp: '2026-11-24T14:59:59.000Z', data: JSON.parse(JSON.stringify(data)) })
      .reply(202);
    const out = await crmChannel.deliver({ ...message, channel: 'crm' }, ctx({ crmType: 'custom', crmWebhookUrl: 'https://crm.example.com/in/token', crmApiKeyEnc: box.seal('crm-key-9') }));
    expect(out).toMatchObject({ ok: true, statusCode: 202, target: 'https://crm.example.com/in/…' });
    expect(scope.isDone()).toBe(true);
  });

  it('a channel no longer set up fails for good (no retries)', async () => {
    expect(await crmChannel.deliver({ ...message, channel: 'crm' }, ctx({}))).toMatchObject({ ok: false, permanent: true });
    expect(await webhookChannel.deliver(message, ctx({}))).toMatchObject({ ok: false, permanent: true });
  });
});

import nock from 'nock';
import { box, config, ctx, data, message } from '../testing/channel-fixtures';
import { crmChannel } from './crm.channel';
import { realGeeksLeadId } from './realgeeks.crm';

/**
 * Real Geeks' Incoming Leads API (developers.realgeeks.com/incoming-leads-api, /leads, /activities):
 * POST /rest/sites/{site-uuid}/leads, HTTP Basic with the product's credentials, 201 {} on success.
 */
const SITE = '4a9f0c1e-2b3d-4e5f-8a6b-7c8d9e0f1a2b';
const withCreds = { config: { ...config, REALGEEKS_API_USERNAME: 'listingads', REALGEEKS_API_PASSWORD: 's3cret' } };
const realgeeks = { crmType: 'realgeeks' as const, crmApiKeyEnc: box.seal(SITE) };
const crmMessage = { ...message, channel: 'crm' as const };
const RG = 'https://receivers.leadrouter.realgeeks.com';
const path = `/rest/sites/${SITE}/leads`;

const expectedLead = {
  id: realGeeksLeadId(message.webhookId),
  source: 'listingads.example',
  source_details: 'Property inquiry: 12 Palm Ave, Tampa, FL 33602',
  email: 'jamie@example.com',
  first_name: 'Jamie Q.',
  last_name: 'Buyer',
  phone: '8135550101',
  role: 'Buyer',
  activities: [
    {
      type: 'note',
      source: 'listingads.example',
      description: `Lead from listingads.example about 12 Palm Ave, Tampa, FL 33602 (MLS MLS-123, $450,000): ${data.listing.url}\nMessage: Is it still available?\nThe buyer would like a tour.`,
      created: '2026-11-24T14:59:59.000Z',
      notify_users: true,
    },
  ],
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Real Geeks (Lead Router Incoming Leads API)', () => {
  it('posts the buyer as a Buyer lead with the listing, message and interests in a note activity; 201 {} succeeds', async () => {
    const scope = nock(RG, { reqheaders: { authorization: `Basic ${Buffer.from('listingads:s3cret').toString('base64')}`, 'content-type': 'application/json' } })
      .post(path, expectedLead)
      .reply(201, {});
    const out = await crmChannel.deliver(crmMessage, ctx(realgeeks, withCreds));
    expect(out).toMatchObject({ ok: true, statusCode: 201, target: `${RG}/rest/sites/…/leads` });
    expect(scope.isDone()).toBe(true);
  });

  it('every attempt of one delivery sends the same lead id (a valid UUID), so a retry names the same lead', async () => {
    const ids: string[] = [];
    nock(RG)
      .post(path, (b) => (ids.push(b.id), true))
      .reply(503, 'busy')
      .post(path, (b) => (ids.push(b.id), true))
      .reply(201, {});
    expect(await crmChannel.deliver(crmMessage, ctx(realgeeks, withCreds))).toMatchObject({ ok: false, statusCode: 503, permanent: false });
    expect(await crmChannel.deliver({ ...crmMessage, attempts: 1 }, ctx(realgeeks, withCreds))).toMatchObject({ ok: true });
    expect(ids[0]).toBe(ids[1]);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(realGeeksLeadId('msg_other')).not.toBe(ids[0]);
  });

  it('429 waits for Retry-After; 401 and 400 fail with the answer kept; without server credentials it fails for good', async () => {
    nock(RG).post(path).reply(429, { error: 'Too many requests' }, { 'Retry-After': '30' });
    expect(await crmChannel.deliver(crmMessage, ctx(realgeeks, withCreds))).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 30 });
    nock(RG).post(path).reply(401, { error: 'Unauthorized' });
    expect(await crmChannel.deliver(crmMessage, ctx(realgeeks, withCreds))).toMatchObject({ ok: false, statusCode: 401, responseBody: '{"error":"Unauthorized"}' });
    nock(RG).post(path).reply(400, { error: 'site not found' });
    expect(await crmChannel.deliver(crmMessage, ctx(realgeeks, withCreds))).toMatchObject({ ok: false, statusCode: 400 });
    expect(await crmChannel.deliver(crmMessage, ctx(realgeeks))).toMatchObject({ ok: false, permanent: true });
    expect(await crmChannel.deliver(crmMessage, ctx({ crmType: 'realgeeks' }, withCreds))).toMatchObject({ ok: false, permanent: true, error: 'The Real Geeks site UUID is no longer set' });
  });
});

import nock from 'nock';
import { box, ctx, data, message, NOW } from '../testing/channel-fixtures';
import { crmChannel } from './crm.channel';
import { parseLoftyJson } from './lofty.crm';

/**
 * Lofty's Open API (developer.lofty.com): API key as `Authorization: token <key>` (authentication/api-keys);
 * GET /v1.0/leads?email= (api-reference/leads/list-leads) answers {get_metadata, leads: [...]};
 * POST /v1.0/leads (api-reference/leads/create-lead) answers {"leadId": <int64>}; errors are {code, message}
 * (authentication/error-codes); 429 carries X-RateLimit-* headers (authentication/overview).
 */
const KEY = 'eyJhbGciOiJIUzI1NiJ9.lofty-key.sig';
const lofty = { crmType: 'lofty' as const, crmApiKeyEnc: box.seal(KEY) };
const crmMessage = { ...message, channel: 'crm' as const };
const LOFTY = 'https://api.lofty.com';
const search = { email: 'jamie@example.com', limit: '10' };
// Above 2^53: a JS number would round it (to 9007199254740994).
const BIG_ID = '9007199254740993';
const none = { get_metadata: { collection: 'lead', limit: 10, offset: 0, total: 0 }, leads: [] };
const existing = `{"get_metadata":{"collection":"lead","limit":10,"offset":0,"total":1},"leads":[{"leadId":${BIG_ID},"firstName":"Jamie Q.","emails":["Jamie@Example.com"],"tags":[{"leadId":${BIG_ID},"tagName":"Listing Ads"}]}]}`;

const expectedLead = {
  firstName: 'Jamie Q.',
  lastName: 'Buyer',
  emails: ['jamie@example.com'],
  phones: ['8135550101'],
  leadTypes: [2],
  source: 'listingads.example',
  tags: ['Listing Ads', 'Tour Request'],
  property: {
    streetAddress: '12 Palm Ave',
    city: 'Tampa',
    state: 'FL',
    zipCode: '33602',
    price: 450000,
    bedrooms: 3,
    bathrooms: 2,
    squareFeet: 1850,
    note: `Lead from listingads.example about 12 Palm Ave, Tampa, FL 33602 (MLS MLS-123, $450,000): ${data.listing.url}\nMessage: Is it still available?\nThe buyer would like a tour.\nRef: ${message.webhookId}`,
  },
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Lofty (Open API)', () => {
  it('a new buyer: looks the email up, then creates the documented lead with the API key as a token; the 64-bit leadId is kept exact', async () => {
    const scope = nock(LOFTY, { reqheaders: { authorization: `token ${KEY}`, 'content-type': 'application/json' } })
      .get('/v1.0/leads')
      .query(search)
      .reply(200, none)
      .post('/v1.0/leads', expectedLead)
      .reply(200, `{"leadId": ${BIG_ID}}`, { 'content-type': 'application/json' });
    const out = await crmChannel.deliver(crmMessage, ctx(lofty));
    expect(out).toMatchObject({ ok: true, statusCode: 200, target: `${LOFTY}/v1.0/leads`, responseBody: `lead ${BIG_ID} created`, warning: null });
    expect(scope.isDone()).toBe(true);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it('a retry after an attempt whose answer was lost finds the lead that attempt made and creates no second one', async () => {
    nock(LOFTY).get('/v1.0/leads').query(search).reply(200, none).post('/v1.0/leads').replyWithError('socket hang up');
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({ ok: false, statusCode: null, permanent: false });
    // The second attempt: Lofty has the lead now. Only the look-up is intercepted: a POST would fail the test.
    const scope = nock(LOFTY).get('/v1.0/leads').query(search).reply(200, existing);
    const out = await crmChannel.deliver({ ...crmMessage, attempts: 1 }, ctx(lofty));
    expect(out).toMatchObject({ ok: true, statusCode: 200, responseBody: `lead ${BIG_ID} already in Lofty (one lead per email): not created again` });
    expect(out.warning).toContain('already a lead in Lofty');
    expect(scope.isDone()).toBe(true);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('a look-up hit with another email (a loose match) does not count: the lead is created', async () => {
    const other = `{"leads":[{"leadId":${BIG_ID},"emails":["jamie.other@example.com"]}]}`;
    const scope = nock(LOFTY).get('/v1.0/leads').query(search).reply(200, other).post('/v1.0/leads').reply(200, '{"leadId":651095960136641}');
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({ ok: true, responseBody: 'lead 651095960136641 created' });
    expect(scope.isDone()).toBe(true);
  });

  it('429 waits for Retry-After, or for the X-RateLimit-Reset Lofty documents; 5xx is retried', async () => {
    nock(LOFTY).get('/v1.0/leads').query(search).reply(429, { message: 'Too Many Requests' }, { 'Retry-After': '30' });
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 30, permanent: false });
    const reset = String(Math.floor(NOW.getTime() / 1000) + 42);
    nock(LOFTY).get('/v1.0/leads').query(search).reply(200, none).post('/v1.0/leads').reply(429, { message: 'Too Many Requests' }, { 'X-RateLimit-Limit': '500', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset });
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 42, permanent: false });
    nock(LOFTY).get('/v1.0/leads').query(search).reply(200, none).post('/v1.0/leads').reply(500, { code: 'INTERNAL', message: 'oops' });
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({ ok: false, statusCode: 500, permanent: false, error: 'Lofty answered 500 Internal Server Error' });
  });

  it('4xx fails for good with a message that says what to fix; without a key it fails for good', async () => {
    nock(LOFTY).get('/v1.0/leads').query(search).reply(401, { code: 'BAD_CREDENTIALS', message: 'Invalid API key or access token.' });
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({
      ok: false,
      statusCode: 401,
      permanent: true,
      error: 'Lofty refused the API key (401 Unauthorized): copy it again from Lofty → Settings → Integrations → API and save it',
      responseBody: '{"code":"BAD_CREDENTIALS","message":"Invalid API key or access token."}',
    });
    nock(LOFTY).get('/v1.0/leads').query(search).reply(200, none).post('/v1.0/leads').reply(400, { code: 'PARAMETER_TOO_LONG', message: 'A string parameter exceeds the maximum allowed length.' });
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({
      ok: false,
      statusCode: 400,
      permanent: true,
      error: 'Lofty refused the lead (400 Bad Request): PARAMETER_TOO_LONG: A string parameter exceeds the maximum allowed length.',
    });
    nock(LOFTY).get('/v1.0/leads').query(search).reply(200, none).post('/v1.0/leads').reply(403, { code: 'PERMISSION_DENIED', message: 'no' });
    expect(await crmChannel.deliver(crmMessage, ctx(lofty))).toMatchObject({ ok: false, statusCode: 403, permanent: true, error: 'Lofty answered 403 Forbidden: this API key may not create leads (PERMISSION_DENIED: no)' });
    expect(await crmChannel.deliver(crmMessage, ctx({ crmType: 'lofty' }))).toMatchObject({ ok: false, permanent: true, error: 'The Lofty API key is no longer set' });
  });

  it('reads 64-bit lead ids as strings, and leaves "leadId" inside a string value alone', () => {
    expect(parseLoftyJson(`{"leadId": ${BIG_ID}}`).leadId).toBe(BIG_ID);
    expect(parseLoftyJson('{"note":"\\"leadId\\": 5","leadId":-1}')).toEqual({ note: '"leadId": 5', leadId: '-1' });
  });
});

import nock from 'nock';
import { box, ctx, data, message } from '../testing/channel-fixtures';
import { crmChannel } from './crm.channel';
import { HUBSPOT_API } from './hubspot.crm';

/**
 * HubSpot (CRM v3, through @hubspot/api-client) against its documented request shapes:
 * POST /crm/v3/objects/contacts/batch/upsert (idProperty email), POST /crm/v3/objects/notes/search,
 * POST /crm/v3/objects/notes with a note → contact association (HUBSPOT_DEFINED 202).
 */
const TOKEN = 'pat-na1-0c6f1b6e-1111-2222-3333-444455556666';
const hubspot = { crmType: 'hubspot' as const, crmApiKeyEnc: box.seal(TOKEN) };
const crmMessage = { ...message, channel: 'crm' as const };
const auth = { reqheaders: { authorization: `Bearer ${TOKEN}` } };

const upsertBody = {
  inputs: [{ idProperty: 'email', id: 'jamie@example.com', properties: { email: 'jamie@example.com', firstname: 'Jamie Q.', lastname: 'Buyer', phone: '8135550101' } }],
};
const upserted = (isNew: boolean) => ({
  status: 'COMPLETE',
  results: [{ id: '501', new: isNew, archived: false, properties: { email: 'jamie@example.com' }, createdAt: '2026-11-24T15:00:00.000Z', updatedAt: '2026-11-24T15:00:00.000Z' }],
  startedAt: '2026-11-24T15:00:00.000Z',
  completedAt: '2026-11-24T15:00:00.100Z',
});
const noteSearch = { filterGroups: [{ filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: '501' }] }], properties: ['hs_note_body'], sorts: ['-hs_timestamp'], limit: 100 };
const note = (body: string) => ({ id: '9001', archived: false, properties: { hs_note_body: body }, createdAt: '2026-11-24T15:00:00.000Z', updatedAt: '2026-11-24T15:00:00.000Z' });

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('HubSpot', () => {
  it('upserts the contact by email, then adds a note with the listing, message, interests and our reference', async () => {
    let noteBody: { properties: Record<string, string>; associations: unknown } | undefined;
    const scope = nock(HUBSPOT_API, auth)
      .post('/crm/v3/objects/contacts/batch/upsert', upsertBody)
      .reply(200, upserted(true))
      .post('/crm/v3/objects/notes/search', noteSearch)
      .reply(200, { total: 0, results: [] })
      .post('/crm/v3/objects/notes', (b) => {
        noteBody = b;
        return true;
      })
      .reply(201, note('…'));
    const out = await crmChannel.deliver(crmMessage, ctx(hubspot));
    expect(out).toMatchObject({ ok: true, statusCode: 201, responseBody: 'contact 501 created, note 9001 added', target: `${HUBSPOT_API}/crm/v3/objects/contacts` });
    expect(scope.isDone()).toBe(true);
    expect(noteBody!.associations).toEqual([{ to: { id: '501' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }] }]);
    expect(noteBody!.properties.hs_timestamp).toBe('2026-11-24T14:59:59.000Z');
    expect(noteBody!.properties.hs_note_body).toBe(
      '<p><strong>New lead from Listing Ads</strong></p>' +
        `<p>Property: <a href="${data.listing.url}">12 Palm Ave, Tampa, FL 33602</a> (MLS MLS-123), $450,000</p>` +
        '<p>Message: Is it still available?</p><p>The buyer would like a tour.</p><p>Ref: msg_2KWPBgLlAfxdpx2AI54pPJ85f4W</p>',
    );
  });

  it('a retry updates the same contact and finds its note: no second contact, no second note', async () => {
    const body = `<p>New lead</p><p>Ref: ${message.webhookId}</p>`;
    const scope = nock(HUBSPOT_API, auth)
      .post('/crm/v3/objects/contacts/batch/upsert', upsertBody)
      .reply(200, upserted(false))
      .post('/crm/v3/objects/notes/search')
      .reply(200, { total: 2, results: [note('<p>Ref: msg_another</p>'), { ...note(body), id: '9002' }] });
    // No POST /crm/v3/objects/notes is intercepted: a create would fail the attempt (no network in tests).
    const out = await crmChannel.deliver(crmMessage, ctx(hubspot));
    expect(out).toMatchObject({ ok: true, statusCode: 200, responseBody: 'contact 501 updated, note 9002 already there' });
    expect(scope.isDone()).toBe(true);
  });

  it('escapes what the buyer typed in the note', async () => {
    let html = '';
    nock(HUBSPOT_API)
      .post('/crm/v3/objects/contacts/batch/upsert')
      .reply(200, upserted(true))
      .post('/crm/v3/objects/notes/search')
      .reply(200, { total: 0, results: [] })
      .post('/crm/v3/objects/notes', (b) => ((html = b.properties.hs_note_body), true))
      .reply(201, note('x'));
    const evil = { ...data, lead: { ...data.lead, message: '<img src=x onerror=alert(1)>' } };
    await crmChannel.deliver({ ...crmMessage, payload: { ...crmMessage.payload, data: evil } }, ctx(hubspot));
    expect(html).toContain('Message: &lt;img src=x onerror=alert(1)&gt;');
  });

  it('429 fails with HubSpot’s Retry-After for the next attempt; 401 names the token; 5xx is retried', async () => {
    nock(HUBSPOT_API).post('/crm/v3/objects/contacts/batch/upsert').reply(429, { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', category: 'RATE_LIMITS' }, { 'Retry-After': '10' });
    expect(await crmChannel.deliver(crmMessage, ctx(hubspot))).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 10, permanent: false, gone: false });

    nock(HUBSPOT_API).post('/crm/v3/objects/contacts/batch/upsert').reply(401, { status: 'error', message: 'Authentication credentials not found.', category: 'INVALID_AUTHENTICATION' });
    const unauthorized = await crmChannel.deliver(crmMessage, ctx(hubspot));
    expect(unauthorized).toMatchObject({ ok: false, statusCode: 401, permanent: false });
    expect(unauthorized.error).toBe('HubSpot answered 401 Unauthorized: check the private app access token and its CRM contact scopes');
    expect(unauthorized.responseBody).toContain('Authentication credentials not found.');

    nock(HUBSPOT_API)
      .post('/crm/v3/objects/contacts/batch/upsert')
      .reply(200, upserted(false))
      .post('/crm/v3/objects/notes/search')
      .reply(200, { total: 0, results: [] })
      .post('/crm/v3/objects/notes')
      .reply(503, { status: 'error', message: 'Service unavailable' });
    expect(await crmChannel.deliver(crmMessage, ctx(hubspot))).toMatchObject({ ok: false, statusCode: 503, permanent: false });
  });

  it('without a token the channel fails for good (no retries)', async () => {
    expect(await crmChannel.deliver(crmMessage, ctx({ crmType: 'hubspot' }))).toMatchObject({ ok: false, permanent: true, error: 'The HubSpot access token is no longer set' });
  });
});

import nock from 'nock';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { loadConfig } from '../../../platform/config';
import { ctx as channelCtx, data, message, NOW, box } from '../testing/channel-fixtures';
import { agentWithListing } from '../../../../test/factories';
import { nockOutbound } from '../testing/nock-outbound';
import { crmChannel } from './crm.channel';
import { saveLionDeskConnection, lionDeskConnectionView, liondeskAuthorizeUrl } from '../crm-oauth/liondesk-oauth';
import type { ChannelContext } from './channel';

/**
 * LionDesk's v2 API as developers.liondesk.com documents it:
 *  - docs/endpoints/contacts: POST https://api-v2.liondesk.com/contacts (printed there with a doubled slash), `Authorization: Bearer <access token>`,
 *    JSON {first_name, last_name, email, mobile_phone, tags, …};
 *  - docs/authentication/authorization-grant: /oauth2/authorize?response_type=code&client_id&redirect_uri&scope,
 *    and POST /oauth2/token with a JSON body;
 *  - docs/authentication/access-tokens: {access_token, refresh_token, expires, expires_in, scope, token_type}.
 */
const LIONDESK = 'https://api-v2.liondesk.com';
const CLIENT = { LIONDESK_CLIENT_ID: 'ld-client-id', LIONDESK_CLIENT_SECRET: 'ld-client-secret' };
const crmMessage = { ...message, channel: 'crm' as const };
const liondesk = { crmType: 'liondesk' as const };

const expectedContact = {
  first_name: 'Jamie Q.',
  last_name: 'Buyer',
  email: 'jamie@example.com',
  mobile_phone: '8135550101',
  tags: 'Listing Ads,Tour Request',
};

let t: TestContext;
const config: ChannelContext['config'] = loadConfig({ NODE_ENV: 'test', ENCRYPTION_KEY: 'a'.repeat(64), PUBLIC_URL: 'https://www.listingads.example', ...CLIENT });
nockOutbound();
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** An agent with a LionDesk connection whose access token expires at `expiresAt`. */
async function connected(expiresAt: Date | null, refreshToken: string | null = 'refresh-1') {
  const { agent } = await agentWithListing(t.db);
  await saveLionDeskConnection(t.db, box, agent.id, { accessToken: 'access-1', refreshToken, expiresAt });
  return agent;
}
const deliver = (agentId: number) => crmChannel.deliver({ ...crmMessage, agentId }, channelCtx(liondesk, { db: t.db, config, now: NOW }));
const stored = (agentId: number) => t.db('crmOauthConnections').where({ agentId, provider: 'liondesk' }).first();
const LATER = new Date(NOW.getTime() + 3600_000);
const EXPIRED = new Date(NOW.getTime() - 1000);

describe('LionDesk: the authorization link', () => {
  it('goes to the documented authorize URL with response_type=code, client_id, the redirect URI on the public origin, scope write and our state', () => {
    const url = new URL(liondeskAuthorizeUrl(config, 'signed-state'));
    expect(`${url.origin}${url.pathname}`).toBe(`${LIONDESK}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'ld-client-id',
      redirect_uri: 'https://www.listingads.example/api/crm/liondesk/callback',
      scope: 'write',
      state: 'signed-state',
    });
  });
});

describe('LionDesk: the contact', () => {
  it('creates the documented contact with the stored access token as a Bearer token', async () => {
    const agent = await connected(LATER);
    const scope = nock(LIONDESK, { reqheaders: { authorization: 'Bearer access-1', 'content-type': 'application/json' } })
      .post('/contacts', expectedContact)
      .reply(201, { id: 4711, first_name: 'Jamie Q.', email: 'jamie@example.com' });
    const out = await deliver(agent.id);
    expect(out).toMatchObject({ ok: true, statusCode: 201, target: `${LIONDESK}/contacts`, responseBody: 'contact 4711 created', error: null });
    expect(scope.isDone()).toBe(true);
    expect(JSON.stringify(out)).not.toContain('access-1');
  });

  it('maps similar-homes interest to its tag, and a one-word name to first_name only', async () => {
    const agent = await connected(LATER);
    const one = { ...data, lead: { ...data.lead, name: 'Jamie', phone: null, interestedInTour: false, interestedInSimilar: true } };
    const scope = nock(LIONDESK)
      .post('/contacts', { first_name: 'Jamie', email: 'jamie@example.com', tags: 'Listing Ads,Similar Homes' })
      .reply(201, { id: 1 });
    const out = await crmChannel.deliver({ ...crmMessage, agentId: agent.id, payload: { ...crmMessage.payload, data: one } }, channelCtx(liondesk, { db: t.db, config, now: NOW }));
    expect(out.ok).toBe(true);
    expect(scope.isDone()).toBe(true);
  });

  it('429 waits for Retry-After; 5xx is retried; 400 and 403 fail for good with what to fix', async () => {
    const agent = await connected(LATER);
    nock(LIONDESK).post('/contacts').reply(429, { message: 'Too many requests' }, { 'Retry-After': '30' });
    expect(await deliver(agent.id)).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 30, permanent: false });
    nock(LIONDESK).post('/contacts').reply(503, 'busy');
    expect(await deliver(agent.id)).toMatchObject({ ok: false, statusCode: 503, permanent: false, error: 'LionDesk answered 503 Service Unavailable' });
    nock(LIONDESK).post('/contacts').reply(400, { name: 'BadRequest', message: 'email is invalid' });
    expect(await deliver(agent.id)).toMatchObject({ ok: false, statusCode: 400, permanent: true, error: 'LionDesk refused the contact (400 Bad Request): email is invalid' });
    nock(LIONDESK).post('/contacts').reply(403, { message: 'Forbidden' });
    const forbidden = await deliver(agent.id);
    expect(forbidden).toMatchObject({ ok: false, statusCode: 403, permanent: true });
    expect(forbidden.error).toMatch(/may not create contacts/);
  });

  it('a 401 on a token we thought fresh: retried, and the next attempt renews the token first', async () => {
    const agent = await connected(LATER);
    nock(LIONDESK).post('/contacts').reply(401, { message: 'invalid token' });
    expect(await deliver(agent.id)).toMatchObject({ ok: false, statusCode: 401, permanent: false });
    const scope = nock(LIONDESK)
      .post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: 'ld-client-id', client_secret: 'ld-client-secret', redirect_uri: 'https://www.listingads.example/api/crm/liondesk/callback' })
      .reply(200, { access_token: 'access-2', refresh_token: 'refresh-2', expires_in: 776000, scope: 'write', token_type: 'Bearer' })
      .post('/contacts', expectedContact)
      .matchHeader('authorization', 'Bearer access-2')
      .reply(201, { id: 2 });
    expect(await deliver(agent.id)).toMatchObject({ ok: true, statusCode: 201 });
    expect(scope.isDone()).toBe(true);
  });

  it('a delivery that succeeded is not sent again, and a retry after a failure makes one contact (no documented look-up exists, so no GET is made)', async () => {
    const agent = await connected(LATER);
    nock(LIONDESK).post('/contacts').reply(502, 'bad gateway');
    expect((await deliver(agent.id)).ok).toBe(false);
    const scope = nock(LIONDESK).post('/contacts', expectedContact).once().reply(201, { id: 9 });
    expect((await deliver(agent.id)).ok).toBe(true);
    expect(scope.isDone()).toBe(true);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('without a connection: fails for good, telling the agent to connect LionDesk', async () => {
    const { agent } = await agentWithListing(t.db);
    expect(await deliver(agent.id)).toMatchObject({ ok: false, permanent: true, error: 'LionDesk is not connected: click Connect LionDesk in Lead Notifications → CRM' });
  });
});

describe('LionDesk: renewing the access token', () => {
  it('an expired token is renewed with the documented refresh grant first; the new tokens are stored sealed', async () => {
    const agent = await connected(EXPIRED);
    const scope = nock(LIONDESK)
      .post('/oauth2/token', (body) => body.grant_type === 'refresh_token' && body.refresh_token === 'refresh-1' && body.client_secret === 'ld-client-secret')
      .matchHeader('content-type', 'application/json')
      .reply(200, { access_token: 'access-2', refresh_token: 'refresh-2', expires: '2026-12-05T03:33:41.000Z', expires_in: 776000, scope: 'write', token_type: 'Bearer' })
      .post('/contacts', expectedContact)
      .matchHeader('authorization', 'Bearer access-2')
      .reply(201, { id: 3 });
    expect(await deliver(agent.id)).toMatchObject({ ok: true, statusCode: 201 });
    expect(scope.isDone()).toBe(true);
    const row = await stored(agent.id);
    expect(box.open(row.accessTokenEnc)).toBe('access-2');
    expect(box.open(row.refreshTokenEnc)).toBe('refresh-2');
    expect(JSON.stringify(row)).not.toContain('access-2');
    expect(new Date(row.expiresAt).getTime()).toBe(NOW.getTime() + 776000 * 1000);
  });

  it('two workers delivering at once spend the refresh token once: the second waits for the row lock and uses the renewed token', async () => {
    const agent = await connected(EXPIRED);
    const token = nock(LIONDESK)
      .post('/oauth2/token', (body) => body.refresh_token === 'refresh-1')
      .once()
      .delay(200)
      .reply(200, { access_token: 'access-2', refresh_token: 'refresh-2', expires_in: 776000, token_type: 'Bearer' });
    const contacts = nock(LIONDESK).post('/contacts').matchHeader('authorization', 'Bearer access-2').twice().reply(201, { id: 5 });
    const [a, b] = await Promise.all([deliver(agent.id), deliver(agent.id)]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(token.isDone()).toBe(true);
    expect(contacts.isDone()).toBe(true);
  });

  it('a refresh LionDesk refuses (revoked): the connection needs the agent, and the delivery fails for good saying so', async () => {
    const agent = await connected(EXPIRED);
    nock(LIONDESK).post('/oauth2/token').reply(400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
    const out = await deliver(agent.id);
    expect(out).toMatchObject({ ok: false, permanent: true, statusCode: 400 });
    expect(out.error).toMatch(/^LionDesk no longer accepts this connection .*: connect LionDesk again in Lead Notifications → CRM \(LionDesk answered 400 \(invalid_grant: Invalid refresh token\)\)$/);
    expect(out.error).not.toContain('refresh-1');
    expect(await lionDeskConnectionView(t.db, agent.id)).toMatchObject({ connected: true, needsReconnect: true });
    // The next lead makes no call to LionDesk at all.
    expect(await deliver(agent.id)).toMatchObject({ ok: false, permanent: true });
  });

  it('a refresh that could not reach LionDesk (5xx) is retried with the delivery, the connection kept', async () => {
    const agent = await connected(EXPIRED);
    nock(LIONDESK).post('/oauth2/token').reply(502, 'bad gateway');
    expect(await deliver(agent.id)).toMatchObject({ ok: false, permanent: false, statusCode: 502 });
    expect(await lionDeskConnectionView(t.db, agent.id)).toMatchObject({ connected: true, needsReconnect: false });
    expect(box.open((await stored(agent.id)).refreshTokenEnc)).toBe('refresh-1');
  });
});

import nock from 'nock';
import { lionDeskConnectionViewSchema } from '@app/contracts';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../../test/helpers';
import { signedInBrowser } from '../../../../test/factories';
import { signLink } from '../../../platform/crypto/signed-links';
import { deliveryTransports } from '../delivery/delivery-deps';
import { nockOutbound } from '../testing/nock-outbound';

/**
 * The LionDesk connect flow (developers.liondesk.com/docs/authentication/authorization-grant): connect → LionDesk's
 * authorize page with a signed, session-bound state → callback → code exchanged at POST /oauth2/token (nock) →
 * tokens stored sealed → back to /dashboard with the result.
 */
const LIONDESK = 'https://api-v2.liondesk.com';
const ENV = { LIONDESK_CLIENT_ID: 'ld-client-id', LIONDESK_CLIENT_SECRET: 'ld-client-secret', PUBLIC_URL: 'https://ads.example.com' };
const REDIRECT_URI = 'https://ads.example.com/api/crm/liondesk/callback';

let t: TestContext;
nockOutbound();
beforeAll(async () => {
  t = await createTestContext({ env: ENV });
});
afterAll(() => t.close());

type Session = ReturnType<TestContext['newSession']>;
const connectUrl = (id: number) => `/api/agents/${id}/crm/liondesk/connect`;

/** Starts the flow; answers LionDesk's authorize URL (as the browser would be sent there) and its state. */
async function start(session: Session, agentId: number) {
  const res = await session.get(connectUrl(agentId)).expect(302);
  const to = new URL(res.headers.location);
  return { to, state: to.searchParams.get('state')! };
}
const callback = (session: Session, query: Record<string, string>) => session.get(`/api/crm/liondesk/callback?${new URLSearchParams(query)}`).expect(302);
const exchange = (code: string) =>
  nock(LIONDESK)
    .post('/oauth2/token', { code, grant_type: 'authorization_code', client_id: 'ld-client-id', client_secret: 'ld-client-secret', redirect_uri: REDIRECT_URI })
    .matchHeader('content-type', 'application/json');

describe('LionDesk connect', () => {
  it('is offered in GET /api/crm-integrations (with its Connect button, no key) when the server has the OAuth app', async () => {
    const list = (await t.request.get('/api/crm-integrations').expect(200)).body as Array<{ type: string; oauth?: boolean }>;
    expect(list.map((c) => c.type)).toEqual(['followupboss', 'hubspot', 'lofty', 'liondesk', 'custom']);
    expect(list.find((c) => c.type === 'liondesk')).toMatchObject({ name: 'LionDesk', oauth: true, requiresApiKey: false });
  });

  it('connect → LionDesk → callback: the code is exchanged, the tokens stored sealed (never shown), LionDesk becomes the CRM', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const { to, state } = await start(session, agent.id);
    expect(`${to.origin}${to.pathname}`).toBe(`${LIONDESK}/oauth2/authorize`);
    expect(Object.fromEntries(to.searchParams)).toEqual({ response_type: 'code', client_id: 'ld-client-id', redirect_uri: REDIRECT_URI, scope: 'write', state });

    const scope = exchange('code-123').reply(200, { access_token: 'ld-access', refresh_token: 'ld-refresh', expires: '2026-12-09T03:33:41.000Z', expires_in: 776000, scope: 'write', token_type: 'Bearer' });
    const back = await callback(session, { code: 'code-123', state });
    expect(back.headers.location).toBe('/dashboard?liondesk=connected');
    expect(scope.isDone()).toBe(true);

    const row = await t.db('crmOauthConnections').where({ agentId: agent.id, provider: 'liondesk' }).first();
    const { box } = deliveryTransports(t.config);
    expect(box.open(row.accessTokenEnc)).toBe('ld-access');
    expect(box.open(row.refreshTokenEnc)).toBe('ld-refresh');
    expect(JSON.stringify(row)).not.toContain('ld-access');

    const view = lionDeskConnectionViewSchema.parse((await session.get(`/api/agents/${agent.id}/crm/liondesk`).expect(200)).body);
    expect(view).toMatchObject({ connected: true, needsReconnect: false });
    expect(JSON.stringify(view)).not.toMatch(/ld-access|ld-refresh/);
    const settings = (await session.get(`/api/agents/${agent.id}/notification-settings`).expect(200)).body;
    expect(settings).toMatchObject({ crmType: 'liondesk', hasCrmApiKey: false });
    expect(JSON.stringify(settings)).not.toMatch(/ld-access|ld-refresh/);

    // The state is spent: the same callback again is refused, and makes no second exchange.
    expect((await callback(session, { code: 'code-123', state })).headers.location).toBe('/dashboard?liondesk=expired');

    // An admin's Login As may look, but neither disconnect nor connect.
    const admin = t.newSession();
    await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
    expect((await admin.get(`/api/agents/${agent.id}/crm/liondesk`).expect(200)).body.connected).toBe(true);
    expect((await admin.delete(`/api/agents/${agent.id}/crm/liondesk`).expect(403)).body.code).toBe('auth.impersonation_read_only');
    expect((await admin.get(connectUrl(agent.id)).expect(403)).body.code).toBe('auth.impersonation_read_only');

    // Disconnect: the tokens are gone.
    await session.delete(`/api/agents/${agent.id}/crm/liondesk`).expect(204);
    expect((await session.get(`/api/agents/${agent.id}/crm/liondesk`).expect(200)).body).toEqual({ connected: false, needsReconnect: false, connectedAt: null });
  });

  it('choosing another CRM deletes the LionDesk tokens', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const { state } = await start(session, agent.id);
    exchange('code-9').reply(200, { access_token: 'a9', refresh_token: 'r9', expires_in: 776000, token_type: 'Bearer' });
    expect((await callback(session, { code: 'code-9', state })).headers.location).toBe('/dashboard?liondesk=connected');
    await session.put(`/api/agents/${agent.id}/notification-settings`).send({ crmType: 'followupboss', crmApiKey: 'fub-key-1' }).expect(200);
    expect(await t.db('crmOauthConnections').where({ agentId: agent.id }).first()).toBeUndefined();
  });

  it('refuses a forged state, one from another browser, and an expired one, without calling LionDesk', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const { state } = await start(session, agent.id);
    // Forged: the signature does not hold.
    expect((await callback(session, { code: 'c', state: `${state.split('~')[0]}~${'A'.repeat(43)}` })).headers.location).toBe('/dashboard?liondesk=expired');
    // A valid state carried to another browser (CSRF: the attacker's own state in the victim's browser).
    const other = await signedInBrowser(t, t.newSession());
    const { state: attackerState } = await start(other.session, other.agent.id);
    expect((await callback(session, { code: 'c', state: attackerState })).headers.location).toBe('/dashboard?liondesk=expired');
    // Well signed for this agent, but expired.
    const stale = signLink(t.config, { purpose: 'liondesk-connect', subject: String(agent.id), action: 'nonce', expiresAt: Date.now() / 1000 - 1 });
    expect((await callback(session, { code: 'c', state: stale })).headers.location).toBe('/dashboard?liondesk=expired');
    expect(await t.db('crmOauthConnections').where({ agentId: agent.id }).first()).toBeUndefined();
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('LionDesk’s error param (the agent said no) and a token endpoint 4xx: back to the dashboard saying so, nothing stored, never a 500', async () => {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    let { state } = await start(session, agent.id);
    expect((await callback(session, { error: 'access_denied', state })).headers.location).toBe('/dashboard?liondesk=denied');

    ({ state } = await start(session, agent.id));
    const scope = exchange('bad-code').reply(400, { error: 'invalid_grant', error_description: 'Invalid authorization code' });
    expect((await callback(session, { code: 'bad-code', state })).headers.location).toBe('/dashboard?liondesk=failed');
    expect(scope.isDone()).toBe(true);
    expect(await t.db('crmOauthConnections').where({ agentId: agent.id }).first()).toBeUndefined();

    // A callback with nothing sensible in it.
    expect((await session.get('/api/crm/liondesk/callback').expect(302)).headers.location).toBe('/dashboard?liondesk=expired');
    expect((await session.get(`/api/crm/liondesk/callback?code=${'x'.repeat(3000)}&state=y`).expect(302)).headers.location).toBe('/dashboard?liondesk=failed');
  });

  it('is for the agent only: another browser gets 404 on connect, status and disconnect (ids cannot be probed); signed out as well', async () => {
    const { agent } = await signedInBrowser(t, t.newSession());
    const stranger = await signedInBrowser(t, t.newSession());
    expect((await stranger.session.get(connectUrl(agent.id)).expect(404)).body.code).toBe('agents.not_found');
    await stranger.session.get(`/api/agents/${agent.id}/crm/liondesk`).expect(404);
    await stranger.session.delete(`/api/agents/${agent.id}/crm/liondesk`).expect(404);
    await t.newSession().get(connectUrl(agent.id)).expect(404);
    await t.newSession().get('/api/agents/abc/crm/liondesk/connect').expect(400);
  });
});

describe('LionDesk without the OAuth app', () => {
  it('is not offered, and connect answers 404 with a clear message', async () => {
    const bare = await createTestContext();
    try {
      expect((await bare.request.get('/api/crm-integrations').expect(200)).body.map((c: { type: string }) => c.type)).not.toContain('liondesk');
      const { session, agent } = await signedInBrowser(bare, bare.newSession());
      expect((await session.get(connectUrl(agent.id)).expect(404)).body).toMatchObject({ code: 'notifications.liondesk_not_configured' });
      expect((await session.put(`/api/agents/${agent.id}/notification-settings`).send({ crmType: 'liondesk' }).expect(400)).body.fields).toEqual({ crmType: expect.any(String) });
    } finally {
      await bare.close();
    }
  });
});

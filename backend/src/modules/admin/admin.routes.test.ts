import { insertAgent, insertListing, loggedInAgent, wizardBrowser } from '../../../test/factories';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';
import { launchJobCount } from '../../../test/jobs';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const cookieNamed = (res: { headers: Record<string, unknown> }, name: string) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith(`${name}=`))?.split(';')[0];

async function adminBrowser() {
  const browser = t.newSession();
  await browser.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
  return browser;
}

/** Rows straight into the tables: the list reads the stored state, whatever wrote it. */
async function seedAgent(opts: {
  name: string;
  email?: string | null;
  createdDaysAgo?: number;
  campaigns?: { status: string; paidCents?: number; paymentStatus?: string; requested?: number; delivered?: number; clicks?: number }[];
}) {
  const createdAt = new Date(Date.now() - (opts.createdDaysAgo ?? 0) * 86_400_000);
  const agent = await insertAgent(t.db, { name: opts.name, email: opts.email ?? null, createdAt });
  const listing = await insertListing(t.db, agent.id, { mlsId: `MANUAL-${agent.id}`, address: '1 Main St', priceCents: 40000000 });
  for (const [i, c] of (opts.campaigns ?? []).entries()) {
    const [campaign] = await t
      .db('campaigns')
      .insert({
        agentId: agent.id,
        listingId: listing.id,
        templateType: 'just-listed',
        headline: `${opts.name} campaign ${i + 1}`,
        budgetCents: 39900,
        impressionsRequested: c.requested ?? 10000,
        impressionsDelivered: c.delivered ?? 0,
        clicks: c.clicks ?? 0,
        status: c.status,
        createdAt: new Date(createdAt.getTime() + i * 1000),
      })
      .returning(['id']);
    if (c.paidCents) {
      await t.db('payments').insert({
        campaignId: campaign.id,
        provider: 'local',
        idempotencyKey: `k-${campaign.id}`,
        amountCents: c.paidCents,
        status: c.paymentStatus ?? 'succeeded',
      });
    }
  }
  return agent.id as number;
}

describe('POST /api/admin/login', () => {
  it('refuses a wrong password with the spec text, and audits it with the IP', async () => {
    const res = await t.request.post('/api/admin/login').send({ password: 'wrong' }).expect(401);
    expect(res.body).toEqual({ message: 'Invalid admin password', code: 'admin.invalid_password' });
    const row = await t.db('auditLog').orderBy('id', 'desc').first();
    expect(row).toMatchObject({ actorType: 'admin', action: 'admin.login_failed' });
    expect(row.ip).toBeTruthy();
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain('wrong');
  });

  it('requires a password', async () => {
    const res = await t.request.post('/api/admin/login').send({ password: '' }).expect(400);
    expect(res.body.fields).toEqual({ password: 'Password is required' });
  });

  it('gives a separate, short-lived admin session under a new id, leaving the agent session alone', async () => {
    const browser = t.newSession();
    const first = await browser.post('/api/agents').send({ name: 'Kim Ode', state: 'NY', manualEntry: true }).expect(201);
    const agentCookie = cookieNamed(first, 'la.sid');
    const res = await browser.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    expect(res.body).toEqual({ ok: true });
    const adminCookie = cookieNamed(res, 'la.admin');
    expect(adminCookie).toBeDefined();
    expect(cookieNamed(res, 'la.sid')).toBeUndefined();
    const setCookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('la.admin='))!;
    expect(setCookie).toMatch(/path=\/api\/admin/i);
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=strict/i);
    const row = await t.db('sessions').whereRaw(`data->>'kind' = 'admin'`).orderBy('updatedAt', 'desc').first();
    const minutes = (row.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(25);
    expect(minutes).toBeLessThanOrEqual(30);
    // A second login is a new admin session id; the old one no longer works.
    const again = await browser.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
    expect(cookieNamed(again, 'la.admin')).not.toEqual(adminCookie);
    expect(await t.db('sessions').where({ sid: row.sid }).first()).toBeUndefined();
    // The agent session is still this browser's.
    await browser.get(`/api/agents/${first.body.id}`).expect(200);
    expect(agentCookie).toBeDefined();
    expect(await t.db('auditLog').where({ action: 'admin.login' }).first()).toMatchObject({ actorType: 'admin' });
  });

});

describe('admin routes without the admin session', () => {
  const routes: [string, string][] = [
    ['get', '/api/admin/agents'],
    ['get', '/api/admin/facebook-metrics'],
    ['get', '/api/admin/login-as/1'],
    ['get', '/api/admin/failed-work'],
    ['post', '/api/admin/failed-work/launches/1/retry'],
    ['post', '/api/admin/failed-work/jobs/retry'],
  ];

  it.each(routes)('%s %s is 401 without a session', async (method, path) => {
    const res = await (t.request as any)[method](path).send({});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('admin.required');
  });

  it.each(routes)('%s %s is 401 for a logged-in agent session', async (method, path) => {
    const { session: browser } = await loggedInAgent(t, t.newSession(), { name: 'Agent Only', email: `agent-only-${Math.random().toString(36).slice(2)}@example.com`, password: 'secret-pass-1' });
    const res = await (browser as any)[method](path).send({});
    expect(res.status).toBe(401);
  });

  it('refuses a forged admin cookie and an expired admin session', async () => {
    await t.request.get('/api/admin/agents').set('Cookie', 'la.admin=admin:forged; la.admin.sig=nope').expect(401);
    const browser = await adminBrowser();
    await browser.get('/api/admin/agents').expect(200);
    await t.db('sessions').whereRaw(`data->>'kind' = 'admin'`).update({ expiresAt: new Date(Date.now() - 1000) });
    await browser.get('/api/admin/agents').expect(401);
  });
});

describe('GET /api/admin/agents', () => {
  let ids: Record<string, number>;
  let browser: ReturnType<TestContext['newSession']>;
  beforeAll(async () => {
    // A known set: the agents made by the tests above go.
    await t.db('payments').delete();
    await t.db('agents').delete();
    ids = {
      ada: await seedAgent({
        name: 'Ada Active',
        email: 'ada@realty.test',
        createdDaysAgo: 0,
        campaigns: [
          { status: 'active', paidCents: 39900, requested: 10000, delivered: 10500 },
          { status: 'completed', paidCents: 19900 },
          { status: 'active', paidCents: 9900, paymentStatus: 'failed' },
        ],
      }),
      ben: await seedAgent({ name: 'Ben Paused', email: 'ben@homes.test', createdDaysAgo: 5, campaigns: [{ status: 'completed', paidCents: 49900 }] }),
      cy: await seedAgent({ name: 'Cy None', email: null, createdDaysAgo: 20 }),
      dee: await seedAgent({ name: 'Dee 50%_off', email: 'dee@realty.test', createdDaysAgo: 60, campaigns: [{ status: 'active' }] }),
      old: await seedAgent({ name: 'Olga Old', email: 'olga@realty.test', createdDaysAgo: 200 }),
    };
    browser = await adminBrowser();
  });

  const get = async (qs = '') => (await browser.get(`/api/admin/agents${qs}`).expect(200)).body;
  const names = (body: { agents: { name: string }[] }) => body.agents.map((a) => a.name).sort();

  it('returns the spec rows with campaigns, succeeded payments only, and totals', async () => {
    const body = await get();
    const ada = body.agents.find((a: { id: number }) => a.id === ids.ada);
    expect(Object.keys(ada).sort()).toEqual(['activeCampaigns', 'autopilot', 'campaigns', 'createdAt', 'email', 'id', 'name', 'totalCampaigns', 'totalSpent'].sort());
    expect(ada).toMatchObject({ name: 'Ada Active', email: 'ada@realty.test', totalCampaigns: 3, activeCampaigns: 2, totalSpent: 598 });
    expect(ada.autopilot).toEqual({ enabled: false, hasCard: false, scheduled: 0, launched: 0, lastRunAt: null });
    expect(ada.campaigns).toHaveLength(3);
    expect(ada.campaigns[2]).toMatchObject({ status: 'active', impressionsRequested: 10000, impressionsDelivered: 10500 });
    expect(body.totals).toEqual({ agents: 5, campaigns: 5, activeCampaigns: 3, revenue: 598 + 499, credits: 0 });
    expect(body.total).toBe(5);
    // Newest first by default.
    expect(body.agents[0].id).toBe(ids.ada);
  });

  it("shows each agent's autopilot: on or off, a saved card", async () => {
    await t.db('autopilotSettings').insert({ agentId: ids.ada, enabled: true, enabledAt: t.db.fn.now() });
    await t.db('paymentCards').insert({ agentId: ids.ada, provider: 'local', customerId: 'cus_local_x', paymentMethodId: 'pm_local_x', brand: 'visa', last4: '4242', savedAt: t.db.fn.now() });
    const ada = (await get()).agents.find((a: { id: number }) => a.id === ids.ada);
    expect(ada.autopilot).toEqual({ enabled: true, hasCard: true, scheduled: 0, launched: 0, lastRunAt: null });
    await t.db('autopilotSettings').where({ agentId: ids.ada }).delete();
    await t.db('paymentCards').where({ agentId: ids.ada }).delete();
  });

  it('filters by status, with totals over the filtered set', async () => {
    const active = await get('?status=active');
    expect(names(active)).toEqual(['Ada Active', 'Dee 50%_off']);
    expect(active.totals).toEqual({ agents: 2, campaigns: 4, activeCampaigns: 3, revenue: 598, credits: 0 });
    const inactive = await get('?status=inactive');
    expect(names(inactive)).toEqual(['Ben Paused', 'Cy None', 'Olga Old']);
    expect(inactive.totals).toEqual({ agents: 3, campaigns: 1, activeCampaigns: 0, revenue: 499, credits: 0 });
  });

  it('filters by campaigns', async () => {
    expect(names(await get('?campaigns=with'))).toEqual(['Ada Active', 'Ben Paused', 'Dee 50%_off']);
    const none = await get('?campaigns=none');
    expect(names(none)).toEqual(['Cy None', 'Olga Old']);
    expect(none.totals).toEqual({ agents: 2, campaigns: 0, activeCampaigns: 0, revenue: 0, credits: 0 });
  });

  it('searches name or email, case-insensitively, with % and _ taken literally', async () => {
    expect(names(await get('?search=REALTY'))).toEqual(['Ada Active', 'Dee 50%_off', 'Olga Old']);
    expect(names(await get('?search=ben'))).toEqual(['Ben Paused']);
    expect(names(await get('?search=' + encodeURIComponent('50%_')))).toEqual(['Dee 50%_off']);
    expect(names(await get('?search=' + encodeURIComponent('%')))).toEqual(['Dee 50%_off']);
    expect((await get('?search=nobody')).totals).toEqual({ agents: 0, campaigns: 0, activeCampaigns: 0, revenue: 0, credits: 0 });
  });

  it('filters by created today, 7, 30 and 90 days', async () => {
    expect(names(await get('?created=today'))).toEqual(['Ada Active']);
    expect(names(await get('?created=7d'))).toEqual(['Ada Active', 'Ben Paused']);
    expect(names(await get('?created=30d'))).toEqual(['Ada Active', 'Ben Paused', 'Cy None']);
    expect(names(await get('?created=90d'))).toEqual(['Ada Active', 'Ben Paused', 'Cy None', 'Dee 50%_off']);
  });

  it('combines filters', async () => {
    const body = await get('?status=inactive&campaigns=with&created=30d&search=homes');
    expect(names(body)).toEqual(['Ben Paused']);
    expect(body.totals).toEqual({ agents: 1, campaigns: 1, activeCampaigns: 0, revenue: 499, credits: 0 });
  });

  it('paginates and sorts, totals staying over the whole filtered set', async () => {
    const p1 = await get('?sort=name&order=asc&pageSize=2&page=1');
    const p2 = await get('?sort=name&order=asc&pageSize=2&page=2');
    const p3 = await get('?sort=name&order=asc&pageSize=2&page=3');
    expect([...p1.agents, ...p2.agents, ...p3.agents].map((a: { name: string }) => a.name)).toEqual(['Ada Active', 'Ben Paused', 'Cy None', 'Dee 50%_off', 'Olga Old']);
    expect(p2.totals.agents).toBe(5);
    expect(p2.total).toBe(5);
    const bySpent = await get('?sort=totalSpent&order=desc');
    expect(bySpent.agents.slice(0, 2).map((a: { name: string }) => a.name)).toEqual(['Ada Active', 'Ben Paused']);
    expect((await get('?page=9')).agents).toEqual([]);
  });

  it('answers bad filters with 400 and field messages', async () => {
    const res = await browser.get('/api/admin/agents?status=sleeping&pageSize=1000&created=yesterday').expect(400);
    expect(Object.keys(res.body.fields).sort()).toEqual(['created', 'pageSize', 'status']);
  });

  it('GET /api/admin/facebook-metrics gives impressions and clicks per campaign from the stored metrics', async () => {
    const adaCampaigns = await t.db('campaigns').where({ agentId: ids.ada }).orderBy('id');
    await t.db('campaigns').where({ id: adaCampaigns[0].id }).update({ impressionsDelivered: 1234, clicks: 56, facebookCampaignId: 'sbx_1' });
    const res = await browser.get(`/api/admin/facebook-metrics?campaignIds=${adaCampaigns[0].id},${adaCampaigns[1].id}`).expect(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        { campaignId: adaCampaigns[0].id, impressions: 1234, clicks: 56 },
        { campaignId: adaCampaigns[1].id, impressions: 0, clicks: 0 },
      ]),
    );
    const launched = await browser.get('/api/admin/facebook-metrics').expect(200);
    expect(launched.body).toEqual([{ campaignId: adaCampaigns[0].id, impressions: 1234, clicks: 56 }]);
    await browser.get('/api/admin/facebook-metrics?campaignIds=1,x').expect(400);
  });

  it('revenue is net of credits: a refund made and account credit outstanding count against it, spent credit no longer does', async () => {
    const [first, second] = await t.db('campaigns').where({ agentId: ids.ada }).orderBy('id').limit(2);
    const base = { agentId: ids.ada, priceCents: 29_900, promised: 15_000, delivered: 10_000 };
    const paymentId = (await t.db('payments').first('id')).id;
    const [refund] = await t.db('campaignCredits').insert({ ...base, campaignId: first.id, paymentId, method: 'refund', amountCents: 9_967, status: 'pending', idempotencyKey: 'k-admin-1' }).returning('id');
    expect((await get()).totals).toMatchObject({ revenue: 598 + 499, credits: 0 });
    await t.db('campaignCredits').where({ id: refund.id }).update({ status: 'succeeded' });
    expect((await get()).totals).toMatchObject({ revenue: 598 + 499 - 99.67, credits: 99.67 });
    const [credit] = await t.db('campaignCredits').insert({ ...base, campaignId: second.id, method: 'account_credit', amountCents: 1_000, status: 'succeeded', idempotencyKey: 'k-admin-2' }).returning('id');
    await t.db('creditLedger').insert({ agentId: ids.ada, kind: 'credit', amountCents: 1_000, campaignCreditId: credit.id });
    expect((await get()).totals).toMatchObject({ revenue: 598 + 499 - 109.67, credits: 109.67 });
    await t.db('creditLedger').insert({ agentId: ids.ada, kind: 'applied', amountCents: -1_000, paymentId: (await t.db('payments').first('id')).id });
    expect((await get()).totals).toMatchObject({ revenue: 598 + 499 - 99.67, credits: 99.67 });
  });
});

describe('Login As', () => {
  it("puts the agent's session, marked and under a new id, in the browser, audited", async () => {
    const { agent } = await loggedInAgent(t, t.newSession(), { name: 'Lena Login', email: 'lena@example.com', password: 'lena-secret-1' });

    const browser = await adminBrowser();
    const before = await t.db('sessions').select('sid');
    const res = await browser.get(`/api/admin/login-as/${agent.id}`).expect(302);
    expect(res.headers.location).toBe('/dashboard');
    expect(cookieNamed(res, 'la.sid')).toBeDefined();
    const session = await t.db('sessions').whereNotIn('sid', before.map((s: { sid: string }) => s.sid)).first();
    expect(session.data).toMatchObject({ agentId: agent.id, impersonatedBy: 'admin' });

    const me = await browser.get('/api/auth/me').expect(200);
    expect(me.body).toEqual({ id: agent.id, name: 'Lena Login', impersonatedBy: 'admin' });
    await browser.get(`/api/agents/${agent.id}`).expect(200);
    // The admin session still works beside it.
    await browser.get('/api/admin/agents').expect(200);

    const row = await t.db('auditLog').where({ action: 'admin.login_as' }).orderBy('id', 'desc').first();
    expect(row).toMatchObject({ actorType: 'admin', targetType: 'agent', targetId: String(agent.id) });
    expect(row.ip).toBeTruthy();

    // The real agent's own /me has no impersonation mark.
    const ownLogin = t.newSession();
    await ownLogin.post('/api/auth/login').send({ email: 'lena@example.com', password: 'lena-secret-1' }).expect(200);
    expect((await ownLogin.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: 'Lena Login' });
  });

  it('cannot change the password or the email, but can edit the profile', async () => {
    const email = 'pat@example.com';
    const { agent } = await loggedInAgent(t, t.newSession(), { name: 'Pat Protected', email, password: 'pat-secret-1' });
    const browser = await adminBrowser();
    await browser.get(`/api/admin/login-as/${agent.id}`).expect(302);

    const pw = await browser.put(`/api/agents/${agent.id}`).send({ email, password: 'hijacked-1' }).expect(403);
    expect(pw.body.code).toBe('auth.impersonation_read_only');
    const mail = await browser.put(`/api/agents/${agent.id}`).send({ email: 'attacker@example.com' }).expect(403);
    expect(mail.body.code).toBe('auth.impersonation_read_only');
    const stored = await t.db('agents').where({ id: agent.id }).first();
    expect(stored.email).toBe(email);

    // The dashboard's profile form sends the (unchanged) email with the other fields.
    const ok = await browser.put(`/api/agents/${agent.id}`).send({ name: 'Pat P.', email: email.toUpperCase(), phone: null, brokerage: null, mlsId: null }).expect(200);
    expect(ok.body.name).toBe('Pat P.');
  });

  it('is admin only, 404 for an unknown agent, and ends from the banner', async () => {
    const browser = await adminBrowser();
    await browser.get('/api/admin/login-as/999999').expect(404);
    await browser.get('/api/admin/login-as/abc').expect(400);
    const owner = t.newSession();
    const { agent } = await wizardBrowser(owner, { name: 'End Me' });
    await browser.get(`/api/admin/login-as/${agent.id}`).expect(302);
    await browser.get('/api/auth/me').expect(200);
    await browser.post('/api/admin/end-impersonation').expect(200);
    await browser.get('/api/auth/me').expect(401);
    expect(await t.db('auditLog').where({ action: 'admin.login_as_ended', targetId: String(agent.id) }).first()).toBeDefined();
  });
});

describe('failed work', () => {
  it('lists a failed launch, and Retry relaunches it (paid + a campaigns.launch job), audited', async () => {
    const agentId = await seedAgent({ name: 'Fay Failed', campaigns: [{ status: 'launch_failed' }] });
    const campaign = await t.db('campaigns').where({ agentId }).first();
    await t.db('campaigns').where({ id: campaign.id }).update({ launchError: 'Invalid parameter', launchAttempts: 6 });
    const browser = await adminBrowser();
    const list = await browser.get('/api/admin/failed-work').expect(200);
    expect(list.body.launches).toEqual(
      expect.arrayContaining([expect.objectContaining({ campaignId: campaign.id, agentId, error: 'Invalid parameter', attempts: 6 })]),
    );
    await browser.post(`/api/admin/failed-work/launches/${campaign.id}/retry`).expect(200);
    expect((await t.db('campaigns').where({ id: campaign.id }).first()).status).toBe('paid');
    expect(await launchJobCount(t.db, campaign.id)).toBe(1);
    expect(await t.db('auditLog').where({ action: 'admin.campaign_relaunch', targetId: String(campaign.id) }).first()).toMatchObject({ actorType: 'admin' });
    // Not launch_failed any more: a second Retry is refused.
    const again = await browser.post(`/api/admin/failed-work/launches/${campaign.id}/retry`).expect(409);
    expect(again.body.code).toBe('campaigns.not_launch_failed');
  });

  it('Retry of an unknown job is 404, a bad id 400', async () => {
    const browser = await adminBrowser();
    await browser.post('/api/admin/failed-work/jobs/retry').send({ queue: 'campaigns.launch', id: '00000000-0000-4000-8000-000000000000' }).expect(404);
    const bad = await browser.post('/api/admin/failed-work/jobs/retry').send({ queue: '', id: 'x' }).expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['id', 'queue']);
  });
});

// Last: a second app's createDb rebinds Objection's global knex, and closing it would break the app above.
describe('admin login rate limit', () => {
  it('rate limits repeated attempts from one client', async () => {
    const fresh = await createTestContext();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fresh.request.post('/api/admin/login').send({ password: `guess-${i}` });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses[6]).toBe(429);
    const limited = await fresh.request.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    await fresh.close();
  });
});

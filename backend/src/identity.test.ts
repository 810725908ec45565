import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, type TestContext } from '../test/helpers';
import type { Session } from '../test/factories';
import { emailsTo, waitForEmail } from '../test/outbox';
import { sendSignInLinksJob, sendVerificationEmailJob } from './modules/agents';

/**
 * One agent is one person (DESIGN §3, issue 23), walked through the API as the security review did: strangers
 * find "Michael Chen, CA" in the MLS, edit his contact and pay for an ad, and the real agent signs in from
 * another device with the link sent to the email the MLS publishes.
 */

jest.setTimeout(90_000);

let t: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-identity-'));
  t = await createTestContext({ work: true, jobs: [sendVerificationEmailJob, sendSignInLinksJob], env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://homes.example.com' } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
// Every request comes from one address: no test may spend another's rate-limit budget.
afterEach(() => t.db('rate_limits').delete());

const MEMBERS = {
  michael: { name: 'Michael Chen', state: 'CA', email: 'michael.chen@goldencoast.example', phone: '(408) 555-0187', brokerage: 'Golden Coast Properties' },
  emily: { name: 'Emily Rodriguez', state: 'TX', email: 'emily.rodriguez@hillcountryhomes.example', phone: '(512) 555-0163', brokerage: 'Hill Country Home Partners' },
  sarah: { name: 'Sarah Johnson', state: 'FL', email: 'sarah.johnson@bayshore-realty.example', phone: '(813) 555-0142', brokerage: 'Bayshore Realty Group' },
} as const;
type Member = keyof typeof MEMBERS;

const STRANGER_BRANDING = { name: 'Mike Chan', email: 'leads@stranger.example', phone: '(555) 010-9999', brokerage: 'Stranger Realty', profileImageUrl: null, logoUrl: null };

/** The wizard's step 1 in a browser: find the member in the MLS, take its identity, load its listings. */
async function findMember(browser: Session, who: Member): Promise<{ agent: { id: number } & Record<string, unknown>; listings: { id: number; mlsId: string }[] }> {
  const { body: found } = await browser.post('/api/mls/search-agent').send({ name: MEMBERS[who].name, state: MEMBERS[who].state }).expect(200);
  const { body: agent } = await browser.post('/api/agents').send({ ...found, brokerage: null, phone: null });
  await browser.post('/api/mls/load').send({ agentId: agent.id, mlsId: agent.mlsId }).expect(200);
  const { body: page } = await browser.get(`/api/agents/${agent.id}/listings?limit=50`).expect(200);
  return { agent, listings: page.listings.filter((l: { status: string }) => l.status === 'active') };
}

/** A draft campaign for the listing, then paid with 4242 (local test payments) and reported by the success screen. */
async function payForAd(browser: Session, agentId: number, listing: { id: number; mlsId: string }) {
  const { body: campaign } = await browser
    .post('/api/campaigns')
    .send({ agentId, listingId: listing.id, templateType: 'just-listed', adFormat: 'single', headline: 'Amazing Property', description: 'Sunny home.', price: '299', status: 'draft' })
    .expect(201);
  const { body: intent } = await browser.post('/api/create-payment-intent').send({ amount: 299, campaignId: campaign.id }).expect(200);
  await browser
    .post('/api/payments/local/confirm')
    .send({ clientSecret: intent.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' })
    .expect(200);
  await browser.post('/api/webhook/payment-success').send({ campaignId: campaign.id }).expect(200);
  return campaign as { id: number; agentName: string };
}

describe('two browsers searching one member', () => {
  it('get one agent: the first makes it, the second is answered the same identity with its own draft access', async () => {
    const first = t.newSession();
    const second = t.newSession();
    const a = await findMember(first, 'emily');
    const b = await findMember(second, 'emily');
    expect(b.agent.id).toBe(a.agent.id);
    expect(b.listings.map((l) => l.id)).toEqual(a.listings.map((l) => l.id));
    expect(await t.db('agents').where({ mlsId: 'TX52890' }).count({ n: '*' }).first()).toEqual({ n: '1' });
    // One listing row per MLS listing, whoever loaded it.
    const [{ n }] = await t.db('listings').where({ agentId: a.agent.id }).count({ n: '*' });
    const keys = (await t.db('listings').where({ agentId: a.agent.id }).select('mlsId')).map((r: { mlsId: string }) => r.mlsId);
    expect(Number(n)).toBe(new Set(keys).size);
  });
});

describe("a stranger's edits and payment", () => {
  it('preview at once in the stranger\'s wizard, and never reach the public page (JSON and server-rendered), the lead routing or the agent', async () => {
    const stranger = t.newSession();
    const { agent, listings } = await findMember(stranger, 'michael');
    const listing = listings[0];

    // Step 4 from a browser that is not signed in as the agent: its own draft, answered merged.
    const saved = await stranger.put(`/api/agents/${agent.id}`).send(STRANGER_BRANDING).expect(200);
    expect(saved.body).toMatchObject({ ...STRANGER_BRANDING, access: 'draft', verified: false });
    expect((await stranger.get(`/api/agents/${agent.id}`).expect(200)).body).toMatchObject(STRANGER_BRANDING);
    // Another browser sees what the MLS publishes.
    const other = t.newSession();
    await findMember(other, 'michael');
    expect((await other.get(`/api/agents/${agent.id}`).expect(200)).body).toMatchObject(MEMBERS.michael);
    // The agent row is untouched.
    expect(await t.db('agents').where({ id: agent.id }).first()).toMatchObject({ name: 'Michael Chen', email: MEMBERS.michael.email, phone: MEMBERS.michael.phone });

    // The ad the stranger pays for shows the stranger's draft (snapshotted on the campaign) …
    const campaign = await payForAd(stranger, agent.id, listing);
    expect(await t.db('campaigns').where({ id: campaign.id }).first()).toMatchObject({ agentId: agent.id, agentName: 'Mike Chan', agentBrokerage: 'Stranger Realty' });

    // … but the listing's page is the listing agent's, with the contact the MLS publishes, in JSON and in the HTML.
    const json = (await t.request.get(`/api/listings/${listing.mlsId}`).expect(200)).body;
    expect(json.agent).toMatchObject({ id: agent.id, ...MEMBERS.michael, profileImageUrl: null, logoUrl: null });
    const html = (await t.request.get(`/listing/${listing.mlsId}`).expect(200)).text;
    expect(html).toContain('Michael Chen');
    expect(html).toContain(MEMBERS.michael.email);
    for (const planted of ['Mike Chan', 'leads@stranger.example', '555) 010-9999', '5550109999', 'Stranger Realty']) expect(html).not.toContain(planted);

    // Lead routing is the signed-in agent's: the stranger cannot set a webhook, Zapier or CRM.
    for (const body of [{ webhookUrl: 'https://stranger.example/hook' }, { zapierWebhookUrl: 'https://hooks.zapier.com/hooks/catch/1/x' }, { crmType: 'custom', crmWebhookUrl: 'https://stranger.example/crm' }]) {
      expect((await stranger.put(`/api/agents/${agent.id}/notification-settings`).send(body).expect(403)).body.code).toBe('agents.login_required');
    }
    expect(await t.db('notificationSettings').where({ agentId: agent.id }).first()).toBeUndefined();
    // Nor read the agent's leads, metrics or campaigns (its own campaign, yes).
    for (const p of ['leads', 'facebook-metrics', 'campaigns', 'deliveries']) await stranger.get(`/api/agents/${agent.id}/${p}`).expect(403);
    await stranger.get(`/api/campaigns/${campaign.id}`).expect(200);
    await other.get(`/api/campaigns/${campaign.id}`).expect(404);
  });

  it("a stranger's payment does not move a page the real agent paid for, and the real agent's own campaigns stay its own", async () => {
    const owner = t.newSession();
    const { agent, listings } = await findMember(owner, 'sarah');
    const listing = listings[0];
    const ours = await payForAd(owner, agent.id, listing);
    const stranger = t.newSession();
    await findMember(stranger, 'sarah');
    await stranger.put(`/api/agents/${agent.id}`).send(STRANGER_BRANDING).expect(200);
    const theirs = await payForAd(stranger, agent.id, listing);

    // Paid later, the stranger's campaign still leaves the page with the listing agent (one row per MLS listing).
    expect((await t.request.get(`/api/listings/${listing.mlsId}`).expect(200)).body.agent).toMatchObject({ id: agent.id, ...MEMBERS.sarah });
    expect((await t.db('listings').where({ mlsId: listing.mlsId }).select('agentId')).map((r: { agentId: number }) => r.agentId)).toEqual([agent.id]);
    // Each wizard browser reaches only the campaign it created.
    await owner.get(`/api/campaigns/${theirs.id}`).expect(404);
    await stranger.get(`/api/campaigns/${ours.id}`).expect(404);
  });
});

describe('the emailed link (the MLS-published email is the trust anchor)', () => {
  it('signs in another device with no password; that device reaches the dashboard, nothing of the requesting browser is applied', async () => {
    const wizard = t.newSession();
    const { agent, listings } = await findMember(wizard, 'michael');
    await wizard.put(`/api/agents/${agent.id}`).send(STRANGER_BRANDING).expect(200);
    // The account setup may only use the MLS's email, and the password is optional.
    expect((await wizard.post(`/api/agents/${agent.id}/account-setup`).send({ email: 'someone.else@example.com' }).expect(403)).body.code).toBe('agents.mls_email_required');
    const sent = await wizard.post(`/api/agents/${agent.id}/account-setup`).send({ email: MEMBERS.michael.email }).expect(202);
    expect(sent.body).toEqual({ status: 'verification_sent', email: MEMBERS.michael.email, expiresInMinutes: 30 });
    const { token } = await waitForEmail(dataDir, MEMBERS.michael.email);

    // Opened on the agent's phone: that device is signed in and the identity verified.
    const phone = t.newSession();
    const opened = await phone.post('/api/auth/verify-email').send({ token }).expect(200);
    expect(opened.body).toEqual({ id: agent.id, name: 'Michael Chen', purpose: 'account_setup', loggedIn: true });
    expect((await phone.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: 'Michael Chen' });
    await phone.get(`/api/agents/${agent.id}/leads`).expect(200);
    const row = await t.db('agents').where({ id: agent.id }).first();
    expect(row).toMatchObject({ email: MEMBERS.michael.email, name: 'Michael Chen', phone: MEMBERS.michael.phone, passwordHash: null });
    expect(row.verifiedAt).not.toBeNull();
    // The requesting browser's draft was not applied, it is not signed in, and its wizard access ended.
    await wizard.get('/api/auth/me').expect(401);
    await wizard.get(`/api/agents/${agent.id}`).expect(404);
    // The link is single-use.
    await t.newSession().post('/api/auth/verify-email').send({ token }).expect(400);

    // Verified, the page shows the agent's own branding, which the signed-in agent now edits.
    await phone.put(`/api/agents/${agent.id}`).send({ phone: '(408) 555-0100', brokerage: 'Golden Coast Properties' }).expect(200);
    expect((await t.request.get(`/api/listings/${listings[0].mlsId}`).expect(200)).body.agent).toMatchObject({ phone: '(408) 555-0100' });
  });

  it('opened in the browser that asked, applies that browser\'s draft and password', async () => {
    const wizard = t.newSession();
    const { agent, listings } = await findMember(wizard, 'emily');
    const branding = { name: 'Emily Rodriguez', email: MEMBERS.emily.email, phone: '(512) 555-0199', brokerage: 'Hill Country Home Partners', profileImageUrl: null, logoUrl: null };
    await wizard.put(`/api/agents/${agent.id}`).send(branding).expect(200);
    const before = (await emailsTo(dataDir, MEMBERS.emily.email)).length;
    await wizard.post(`/api/agents/${agent.id}/account-setup`).send({ email: MEMBERS.emily.email, password: 'bluebonnet-porch-7' }).expect(202);
    const { token } = await waitForEmail(dataDir, MEMBERS.emily.email, before + 1);
    await wizard.post('/api/auth/verify-email').send({ token }).expect(200);
    expect((await wizard.get('/api/auth/me').expect(200)).body.id).toBe(agent.id);
    expect(await t.db('agents').where({ id: agent.id }).first()).toMatchObject({ phone: '(512) 555-0199' });
    expect((await t.request.get(`/api/listings/${listings[0].mlsId}`).expect(200)).body.agent).toMatchObject({ phone: '(512) 555-0199' });
    // The password chosen with the request works from now on.
    await t.newSession().post('/api/auth/login').send({ email: MEMBERS.emily.email, password: 'bluebonnet-porch-7' }).expect(200);
  });

  it('"Email me a sign-in link" answers the same whatever the address, and the link signs in', async () => {
    const browser = t.newSession();
    const before = (await emailsTo(dataDir, MEMBERS.sarah.email)).length;
    const known = await browser.post('/api/auth/sign-in-link').send({ email: MEMBERS.sarah.email }).expect(202);
    const unknown = await browser.post('/api/auth/sign-in-link').send({ email: 'nobody@nowhere.example' }).expect(202);
    expect(unknown.body).toEqual(known.body);
    const email = await waitForEmail(dataDir, MEMBERS.sarah.email, before + 1);
    expect(email.subject).toBe('Your sign-in link for Listing Ads');
    const phone = t.newSession();
    const opened = await phone.post('/api/auth/verify-email').send({ token: email.token }).expect(200);
    expect(opened.body).toMatchObject({ name: 'Sarah Johnson', purpose: 'sign_in', loggedIn: true });
    expect((await phone.get('/api/auth/me').expect(200)).body.name).toBe('Sarah Johnson');
    expect(await emailsTo(dataDir, 'nobody@nowhere.example')).toEqual([]);
  });
});

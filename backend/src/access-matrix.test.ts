import argon2 from 'argon2';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../test/helpers';
import { insertDraftCampaign, insertListing, wizardBrowser, type Session } from '../test/factories';

/**
 * DESIGN §3, the two levels of access of every agent-scoped route, as one table: who may open an agent's data.
 * - the session signed in as the agent (password, Google, an opened email link): everything;
 * - an admin's Login As: everything it may read (it acts as the agent), but never the password, login email or secrets;
 * - a wizard browser of the agent (it found the member or made the manual agent), whether or not the agent has an
 *   account: the `draft` routes (its merged profile and branding draft, the listings, the campaigns it created);
 *   the `signed_in` routes answer 403 `agents.login_required` (it is offered the emailed sign-in link);
 * - any other session, signed in as another agent, a wizard of another agent, or anonymous: 404, like a missing
 *   agent, so ids cannot be probed.
 * A new agent-scoped route is one more line in ROUTES.
 */

jest.setTimeout(120_000);

interface Target {
  agentId: number;
  campaignId: number;
}

interface RouteCase {
  /** The level the route needs: `signed_in` (the agent's own), or `draft` (the wizard's too). */
  level: 'signed_in' | 'draft';
  /** A campaign's route: a wizard browser reaches only the campaigns it created. */
  campaign?: true;
  method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  path: (t: Target) => string;
  body?: Record<string, unknown>;
  /** The answer the agent's own session gets. */
  allowed: number;
  /** When `allowed` is itself an error (e.g. an unknown sub-resource), the code that tells it from a refusal. */
  allowedCode?: string;
}

const ROUTES: Record<string, RouteCase> = {
  'GET /api/agents/:id': { level: 'draft', method: 'get', path: (t) => `/api/agents/${t.agentId}`, allowed: 200 },
  'PUT /api/agents/:id': { level: 'draft', method: 'put', path: (t) => `/api/agents/${t.agentId}`, body: { brokerage: 'Sunshine Realty' }, allowed: 200 },
  'GET /api/agents/:id/listings': { level: 'draft', method: 'get', path: (t) => `/api/agents/${t.agentId}/listings`, allowed: 200 },
  'GET /api/campaigns/:id': { level: 'draft', campaign: true, method: 'get', path: (t) => `/api/campaigns/${t.campaignId}`, allowed: 200 },
  'GET /api/agents/:id/leads': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/leads`, allowed: 200 },
  'GET /api/agents/:id/notification-settings': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/notification-settings`, allowed: 200 },
  // A lead the agent does not have: its own 404, told apart from the agent refusal by its code.
  'POST /api/agents/:id/leads/:leadId/release': {
    level: 'signed_in', method: 'post', path: (t) => `/api/agents/${t.agentId}/leads/999999/release`, body: {}, allowed: 404, allowedCode: 'leads.not_found',
  },
  'POST /api/agents/:id/leads/:leadId/discard': {
    level: 'signed_in', method: 'post', path: (t) => `/api/agents/${t.agentId}/leads/999999/discard`, body: {}, allowed: 404, allowedCode: 'leads.not_found',
  },
  'PUT /api/agents/:id/notification-settings': {
    level: 'signed_in', method: 'put', path: (t) => `/api/agents/${t.agentId}/notification-settings`, body: { emailNotifications: false }, allowed: 200,
  },
  // No webhook URL is set: the agent is told so (400); a refusal never gets that far.
  'POST /api/agents/:id/test-webhook': {
    level: 'signed_in', method: 'post', path: (t) => `/api/agents/${t.agentId}/test-webhook`, body: { webhookType: 'custom' }, allowed: 400, allowedCode: 'notifications.not_configured',
  },
  'GET /api/agents/:id/deliveries': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/deliveries`, allowed: 200 },
  'GET /api/agents/:id/crm/liondesk': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/crm/liondesk`, allowed: 200 },
  // This server has no LionDesk OAuth app: the agent is told so (404 with its own code); a refusal never gets that far.
  'GET /api/agents/:id/crm/liondesk/connect': {
    level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/crm/liondesk/connect`, allowed: 404, allowedCode: 'notifications.liondesk_not_configured',
  },
  'DELETE /api/agents/:id/crm/liondesk': { level: 'signed_in', method: 'delete', path: (t) => `/api/agents/${t.agentId}/crm/liondesk`, allowed: 204 },
  // A delivery the agent does not have: its own 404, told apart from the agent refusal by its code.
  'POST /api/agents/:id/deliveries/:deliveryId/replay': {
    level: 'signed_in', method: 'post', path: (t) => `/api/agents/${t.agentId}/deliveries/999999/replay`, body: {}, allowed: 404, allowedCode: 'notifications.delivery_not_found',
  },
  'GET /api/agents/:id/api-keys': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/api-keys`, allowed: 200 },
  'GET /api/agents/:id/hooks': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/hooks`, allowed: 200 },
  // The dashboard's reads.
  'GET /api/agents/:id/facebook-metrics': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/facebook-metrics`, allowed: 200 },
  'GET /api/agents/:id/facebook-metrics/daily': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/facebook-metrics/daily`, allowed: 200 },
  'GET /api/agents/:id/campaigns': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/campaigns`, allowed: 200 },
  // Credits and reports (issue 26). The target campaign is a draft: it has no report (its own 404, by its code).
  'GET /api/agents/:id/credits': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/credits`, allowed: 200 },
  'PUT /api/agents/:id/credits/preference': { level: 'signed_in', method: 'put', path: (t) => `/api/agents/${t.agentId}/credits/preference`, body: { method: 'account_credit' }, allowed: 200 },
  'GET /api/agents/:id/reports': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/reports`, allowed: 200 },
  'GET /api/agents/:id/reports/:campaignId/pdf': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/reports/${t.campaignId}/pdf`, allowed: 404, allowedCode: 'reports.not_found' },
  'POST /api/agents/:id/reports/:campaignId/seller-link': {
    level: 'signed_in', method: 'post', path: (t) => `/api/agents/${t.agentId}/reports/${t.campaignId}/seller-link`, body: {}, allowed: 404, allowedCode: 'reports.not_found',
  },
  'DELETE /api/agents/:id/reports/:campaignId/seller-link': {
    level: 'signed_in', method: 'delete', path: (t) => `/api/agents/${t.agentId}/reports/${t.campaignId}/seller-link`, allowed: 404, allowedCode: 'reports.not_found',
  },
  // Autopilot's saved card (saving one is refused to a Login As: saved-cards.test.ts).
  'GET /api/agents/:id/saved-card': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/saved-card`, allowed: 200 },
  // Autopilot (changing it, or acting on its runs, is refused to a Login As: autopilot.routes.test.ts).
  'GET /api/agents/:id/autopilot': { level: 'signed_in', method: 'get', path: (t) => `/api/agents/${t.agentId}/autopilot`, allowed: 200 },
};

/** How a session is refused: 404 like a missing agent or campaign, or 403 "please sign in" for the agent's own wizard browser. */
type Expect = 'allowed' | 'not-found' | 'login-required';

let t: TestContext;
let seq = 0;

/** A listing and a draft campaign of this agent, written to the tables (made by no browser: only the signed-in agent reaches it). */
async function campaignOf(agentId: number): Promise<number> {
  return insertDraftCampaign(t.db, await insertListing(t.db, agentId));
}

/** A wizard agent made by `session`, given an account (a verified email and a password) in the database, then logged in from `loginSession`. */
async function accountAgent(session: Session, loginSession: Session, name: string): Promise<Target> {
  const { agent } = await wizardBrowser(session, { name });
  seq += 1;
  const email = `matrix-${seq}-${Date.now()}@example.com`;
  await t.db('agents').where({ id: agent.id }).update({ email, verifiedAt: new Date(), passwordHash: await argon2.hash('sunny-porch-42', { type: argon2.argon2id }) });
  await loginSession.post('/api/auth/login').send({ email, password: 'sunny-porch-42' }).expect(200);
  return { agentId: agent.id, campaignId: await campaignOf(agent.id) };
}

let owner: Session;
let other: Session;
let wizard: Session;
let creator: Session;
let impersonator: Session;
let ownerAgent: Target;
let wizardAgent: Target;

beforeAll(async () => {
  t = await createTestContext();
  owner = t.newSession();
  other = t.newSession();
  wizard = t.newSession();
  creator = t.newSession();
  impersonator = t.newSession();
  // The owner's agent was made in `creator`'s wizard, then got an account, and `owner` logged in as it.
  ownerAgent = await accountAgent(creator, owner, 'Olivia Owner');
  await accountAgent(t.newSession(), other, 'Oscar Other');
  const made = await wizardBrowser(wizard, { name: 'Wendy Wizard' });
  // The wizard browser's own campaign, made through the API (so recorded as that browser's).
  const { body: campaign } = await wizard
    .post('/api/campaigns')
    .send({ agentId: made.agent.id, listingId: made.listing.id, templateType: 'just-listed', adFormat: 'single', headline: 'Amazing Property', description: 'Sunny.', price: '299', status: 'draft' })
    .expect(201);
  wizardAgent = { agentId: made.agent.id, campaignId: campaign.id };
  await impersonator.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
  await impersonator.get(`/api/admin/login-as/${ownerAgent.agentId}`).expect(302);
});
// Every request here comes from one address: no case may spend another's rate-limit budget.
afterEach(() => t.db('rate_limits').delete());
afterAll(() => t.close());

const sessions = () => ({ owner, other, wizard, creator, impersonator, anonymous: null });
type Who = keyof ReturnType<typeof sessions>;

/**
 * Whose agent each row opens, and the session's access to it: `signed-in` (or Login As), `draft` (a wizard browser
 * of the agent; `creator` made the owner's agent in the wizard before it had an account, `wizard` made its own and
 * created its campaign), or `none`.
 */
type Role = 'signed-in' | 'draft' | 'none';
const MATRIX: [Who, 'owner' | 'wizard', Role][] = [
  ['owner', 'owner', 'signed-in'],
  ['impersonator', 'owner', 'signed-in'],
  ['other', 'owner', 'none'],
  ['anonymous', 'owner', 'none'],
  ['wizard', 'owner', 'none'],
  ['creator', 'owner', 'draft'],
  ['wizard', 'wizard', 'draft'],
  ['owner', 'wizard', 'none'],
  ['other', 'wizard', 'none'],
  ['anonymous', 'wizard', 'none'],
];

/** What a role gets on a route: the draft level reaches the draft routes, and of the campaigns only those it created. */
function expectedFor(route: RouteCase, who: Who, role: Role): Expect {
  if (role === 'signed-in') return 'allowed';
  if (role === 'none') return 'not-found';
  if (route.level === 'signed_in') return 'login-required';
  if (route.campaign) return who === 'wizard' ? 'allowed' : 'not-found';
  return 'allowed';
}

describe.each(Object.entries(ROUTES))('%s', (_name, route) => {
  it.each(MATRIX)('%s session, %s agent: %s', async (who, whose, role) => {
    const expected = expectedFor(route, who, role);
    const session = sessions()[who];
    const target = whose === 'owner' ? ownerAgent : wizardAgent;
    const client = session ?? t.request;
    const url = route.path(target);
    const req = client[route.method](url);
    const res = await (route.body ? req.send(route.body) : req);
    if (expected === 'allowed') {
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: route.allowed, code: route.allowedCode ?? res.body?.code });
      if (route.allowedCode) expect(res.body.code).toBe(route.allowedCode);
    } else if (expected === 'not-found') {
      expect(res.status).toBe(404);
      expect(res.body.code).toMatch(/^(agents|campaigns)\.not_found$/);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('agents.login_required');
    }
  });
});

describe('GET /api/agents', () => {
  it('lists the agent this session is signed in as (the dashboard is the signed-in agent\'s)', async () => {
    const ids = async (s: Session | null) => ((await (s ?? t.request).get('/api/agents').expect(200)).body as { id: number }[]).map((a) => a.id);
    expect(await ids(owner)).toEqual([ownerAgent.agentId]);
    expect(await ids(impersonator)).toEqual([ownerAgent.agentId]);
    expect(await ids(wizard)).toEqual([]);
    expect(await ids(creator)).toEqual([]);
    expect(await ids(null)).toEqual([]);
  });
});

describe("an admin's Login As", () => {
  it('may not change the login email, the password, the integrations or their secrets', async () => {
    const agentUrl = `/api/agents/${ownerAgent.agentId}`;
    const { email } = (await owner.get(agentUrl).expect(200)).body as { email: string };
    for (const body of [{ email: 'taken-over@example.com' }, { email, password: 'another-password-1' }]) {
      expect((await impersonator.put(agentUrl).send(body).expect(403)).body.code).toBe('auth.impersonation_read_only');
    }
    const settingsUrl = `${agentUrl}/notification-settings`;
    for (const body of [{ webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, { crmApiKey: 'crm-key-123' }, { clearWebhookSecret: true }, { clearCrmApiKey: true }]) {
      expect((await impersonator.put(settingsUrl).send(body).expect(403)).body.code).toBe('auth.impersonation_read_only');
    }
    // Nor any integration: a first webhook URL would generate the signing secret and show it, once, to the admin,
    // and moving a URL would send the stored secret or key wherever the admin chose.
    expect((await impersonator.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads' }).expect(403)).body.code).toBe('auth.impersonation_read_only');
    expect((await owner.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads' }).expect(200)).body.generatedWebhookSecret).toMatch(/^whsec_/);
    expect((await impersonator.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads-2' }).expect(403)).body.code).toBe('auth.impersonation_read_only');
    // The form sent back unchanged with a toggle: allowed.
    await impersonator.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads', instantNotifications: false }).expect(200);
  });

  it('may not change the password through change-password', async () => {
    expect((await impersonator.post('/api/auth/change-password').send({ currentPassword: 'sunny-porch-42', newPassword: 'another-password-1' }).expect(403)).body.code).toBe(
      'auth.impersonation_read_only',
    );
  });
});

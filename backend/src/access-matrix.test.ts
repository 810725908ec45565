import argon2 from 'argon2';
import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../test/helpers';
import { wizardBrowser, type Session } from '../test/factories';

/**
 * DESIGN §3, the access rules of every agent-scoped route, as one table: who may open an agent's data.
 * - the session logged in as the agent: yes;
 * - the wizard session that made an agent that has no password yet: yes;
 * - that same wizard session once the agent has a password: 403 `agents.login_required` (please log in);
 * - any other session, logged in as another agent, a wizard of another agent, or anonymous: 404, like a
 *   missing agent, so ids cannot be probed;
 * - an admin's Login As: yes (it acts as the agent), but never the password, login email or secrets.
 * A new agent-scoped route is one more line in ROUTES.
 */

jest.setTimeout(120_000);

interface Target {
  agentId: number;
  campaignId: number;
}

interface RouteCase {
  method: 'get' | 'put' | 'post' | 'patch';
  path: (t: Target) => string;
  body?: Record<string, unknown>;
  /** The answer the agent's own session gets. */
  allowed: number;
  /** When `allowed` is itself an error (e.g. an unknown sub-resource), the code that tells it from a refusal. */
  allowedCode?: string;
}

const ROUTES: Record<string, RouteCase> = {
  'GET /api/agents/:id': { method: 'get', path: (t) => `/api/agents/${t.agentId}`, allowed: 200 },
  'PUT /api/agents/:id': { method: 'put', path: (t) => `/api/agents/${t.agentId}`, body: { brokerage: 'Sunshine Realty' }, allowed: 200 },
  'GET /api/agents/:id/leads': { method: 'get', path: (t) => `/api/agents/${t.agentId}/leads`, allowed: 200 },
  'GET /api/agents/:id/listings': { method: 'get', path: (t) => `/api/agents/${t.agentId}/listings`, allowed: 200 },
  'GET /api/agents/:id/notification-settings': { method: 'get', path: (t) => `/api/agents/${t.agentId}/notification-settings`, allowed: 200 },
  'PUT /api/agents/:id/notification-settings': {
    method: 'put', path: (t) => `/api/agents/${t.agentId}/notification-settings`, body: { emailNotifications: false }, allowed: 200,
  },
  // No webhook URL is set: the agent is told so (400); a refusal never gets that far.
  'POST /api/agents/:id/test-webhook': {
    method: 'post', path: (t) => `/api/agents/${t.agentId}/test-webhook`, body: { webhookType: 'custom' }, allowed: 400, allowedCode: 'notifications.not_configured',
  },
  'GET /api/agents/:id/deliveries': { method: 'get', path: (t) => `/api/agents/${t.agentId}/deliveries`, allowed: 200 },
  // A delivery the agent does not have: its own 404, told apart from the agent refusal by its code.
  'POST /api/agents/:id/deliveries/:deliveryId/replay': {
    method: 'post', path: (t) => `/api/agents/${t.agentId}/deliveries/999999/replay`, body: {}, allowed: 404, allowedCode: 'notifications.delivery_not_found',
  },
  'GET /api/campaigns/:id': { method: 'get', path: (t) => `/api/campaigns/${t.campaignId}`, allowed: 200 },
  // The dashboard's reads.
  'GET /api/agents/:id/facebook-metrics': { method: 'get', path: (t) => `/api/agents/${t.agentId}/facebook-metrics`, allowed: 200 },
  'GET /api/agents/:id/facebook-metrics/daily': { method: 'get', path: (t) => `/api/agents/${t.agentId}/facebook-metrics/daily`, allowed: 200 },
  'GET /api/agents/:id/campaigns': { method: 'get', path: (t) => `/api/agents/${t.agentId}/campaigns`, allowed: 200 },
  // Autopilot's saved card (saving one is refused to a Login As: saved-cards.test.ts).
  'GET /api/agents/:id/saved-card': { method: 'get', path: (t) => `/api/agents/${t.agentId}/saved-card`, allowed: 200 },
  // Autopilot (changing it, or acting on its runs, is refused to a Login As: autopilot.routes.test.ts).
  'GET /api/agents/:id/autopilot': { method: 'get', path: (t) => `/api/agents/${t.agentId}/autopilot`, allowed: 200 },
};

/** How a session is refused: 404 like a missing agent or campaign, or 403 "please log in" for the agent's own wizard browser. */
type Expect = 'allowed' | 'not-found' | 'login-required';

let t: TestContext;
let seq = 0;

/** A listing and a draft campaign of this agent, written to the tables (how they were made is not the point here). */
async function campaignOf(agentId: number): Promise<number> {
  seq += 1;
  const mlsId = `AM${Date.now().toString(36).toUpperCase()}${seq}`;
  const [l] = await t.db('listings').insert({ agentId, mlsId, address: '12 Palm Ave', city: 'Tampa', state: 'FL', priceCents: 45_000_000, status: 'active' }).returning('id');
  const [c] = await t
    .db('campaigns')
    .insert({ agentId, listingId: l.id, mlsListingId: mlsId, templateType: 'just-listed', headline: 'Amazing Property', description: 'Sunny.', budgetCents: 29_900, impressionsRequested: 15_000, status: 'draft' })
    .returning('id');
  await t.db('campaignTransitions').insert({ campaignId: c.id, fromStatus: null, toStatus: 'draft', reason: 'created' });
  return c.id;
}

/** A wizard agent made by `session`, given an account (password) in the database, then logged in from `loginSession`. */
async function accountAgent(session: Session, loginSession: Session, name: string): Promise<Target> {
  const { agent } = await wizardBrowser(session, { name });
  seq += 1;
  const email = `matrix-${seq}-${Date.now()}@example.com`;
  await t.db('agents').where({ id: agent.id }).update({ email, passwordHash: await argon2.hash('sunny-porch-42', { type: argon2.argon2id }) });
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
  wizardAgent = { agentId: made.agent.id, campaignId: await campaignOf(made.agent.id) };
  await impersonator.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
  await impersonator.get(`/api/admin/login-as/${ownerAgent.agentId}`).expect(302);
});
// Every request here comes from one address: no case may spend another's rate-limit budget.
afterEach(() => t.db('rate_limits').delete());
afterAll(() => t.close());

const sessions = () => ({ owner, other, wizard, creator, impersonator, anonymous: null });
type Who = keyof ReturnType<typeof sessions>;

/** Whose agent each row opens, and what it must get. */
const MATRIX: [Who, 'owner' | 'wizard', Expect][] = [
  ['owner', 'owner', 'allowed'],
  ['impersonator', 'owner', 'allowed'],
  ['other', 'owner', 'not-found'],
  ['anonymous', 'owner', 'not-found'],
  ['wizard', 'owner', 'not-found'],
  ['creator', 'owner', 'login-required'],
  ['wizard', 'wizard', 'allowed'],
  ['owner', 'wizard', 'not-found'],
  ['other', 'wizard', 'not-found'],
  ['anonymous', 'wizard', 'not-found'],
];

describe.each(Object.entries(ROUTES))('%s', (_name, route) => {
  it.each(MATRIX)('%s session, %s agent: %s', async (who, whose, expected) => {
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
  it('lists only the agents this session may open', async () => {
    const ids = async (s: Session | null) => ((await (s ?? t.request).get('/api/agents').expect(200)).body as { id: number }[]).map((a) => a.id);
    expect(await ids(owner)).toEqual([ownerAgent.agentId]);
    expect(await ids(wizard)).toEqual([wizardAgent.agentId]);
    expect(await ids(impersonator)).toEqual([ownerAgent.agentId]);
    // Its agent has a password now: the wizard browser must log in first.
    expect(await ids(creator)).toEqual([]);
    expect(await ids(null)).toEqual([]);
  });
});

describe("an admin's Login As", () => {
  it('may not change the login email, the password or the notification secrets', async () => {
    const agentUrl = `/api/agents/${ownerAgent.agentId}`;
    const { email } = (await owner.get(agentUrl).expect(200)).body as { email: string };
    for (const body of [{ email: 'taken-over@example.com' }, { email, password: 'another-password-1' }]) {
      expect((await impersonator.put(agentUrl).send(body).expect(403)).body.code).toBe('auth.impersonation_read_only');
    }
    const settingsUrl = `${agentUrl}/notification-settings`;
    for (const body of [{ webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, { crmApiKey: 'crm-key-123' }, { clearWebhookSecret: true }, { clearCrmApiKey: true }]) {
      expect((await impersonator.put(settingsUrl).send(body).expect(403)).body.code).toBe('auth.impersonation_read_only');
    }
    // Nor a first webhook URL: it would generate the signing secret and show it, once, to the admin.
    expect((await impersonator.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads' }).expect(403)).body.code).toBe('auth.impersonation_read_only');
    // The owner may; then the admin may change the URL (the secret stays the agent's).
    await owner.put(settingsUrl).send({ crmApiKey: 'crm-key-123' }).expect(200);
    expect((await owner.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads' }).expect(200)).body.generatedWebhookSecret).toMatch(/^whsec_/);
    const changed = await impersonator.put(settingsUrl).send({ webhookUrl: 'https://hooks.example.com/leads-2' }).expect(200);
    expect(changed.body.generatedWebhookSecret).toBeUndefined();
  });

  it('may not change the password through change-password', async () => {
    expect((await impersonator.post('/api/auth/change-password').send({ currentPassword: 'sunny-porch-42', newPassword: 'another-password-1' }).expect(403)).body.code).toBe(
      'auth.impersonation_read_only',
    );
  });
});

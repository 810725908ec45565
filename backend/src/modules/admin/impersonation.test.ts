import { createTestContext, TEST_ADMIN_PASSWORD, type TestContext } from '../../../test/helpers';
import { loggedInAgent, type Session } from '../../../test/factories';
import { ADMIN_SESSION_MINUTES } from '../../platform/http/admin-session';

/**
 * An admin's Login As (DESIGN §6, issue 23): read-only for the email and the password, it ends with the admin
 * session (30 minutes at most) and at admin logout, and every request made under it is in audit_log with the admin.
 */

jest.setTimeout(60_000);

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());
afterEach(() => t.db('rate_limits').delete());

let seq = 0;
/** A signed-in agent (its own browser), and an admin browser viewing as it. */
async function viewingAs(): Promise<{ admin: Session; agent: { id: number }; email: string }> {
  seq += 1;
  const email = `owner${seq}-${Date.now()}@example.com`;
  const { agent } = await loggedInAgent(t, t.newSession(), { email, password: 'sunny-porch-42' });
  const admin = t.newSession();
  await admin.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(200);
  await admin.get(`/api/admin/login-as/${agent.id}`).expect(302);
  return { admin, agent, email };
}

const requestsAudited = (agentId: number) =>
  t.db('auditLog').where({ action: 'admin.impersonated_request', targetType: 'agent', targetId: String(agentId) }).orderBy('id').select('actorType', 'details');

it('every request made under it is in audit_log with the admin: method, route and status', async () => {
  const { admin, agent } = await viewingAs();
  expect((await admin.get('/api/auth/me').expect(200)).body).toEqual({ id: agent.id, name: 'Dana Whitfield', impersonatedBy: 'admin' });
  await admin.get(`/api/agents/${agent.id}/leads`).expect(200);
  await admin.put(`/api/agents/${agent.id}`).send({ phone: '(813) 555-0199' }).expect(200);
  const rows = await requestsAudited(agent.id);
  expect(rows.map((r) => [r.actorType, r.details.method, r.details.path, r.details.status])).toEqual([
    ['admin', 'GET', '/api/auth/me', 200],
    ['admin', 'GET', '/api/agents/:id/leads', 200],
    ['admin', 'PUT', '/api/agents/:id', 200],
  ]);
  // The admin is named by its session's hash, never the session id itself.
  expect(rows[0].details.adminSession).toMatch(/^[0-9a-f]{16}$/);
  const adminSid = (await t.db('sessions').whereRaw(`sid like 'admin:%'`).orderBy('updatedAt', 'desc').first()).sid;
  expect(JSON.stringify(await t.db('auditLog'))).not.toContain(adminSid);
});

it('refuses to change the email or the password (and the refusals are audited too)', async () => {
  const { admin, agent, email } = await viewingAs();
  for (const [method, path, body] of [
    ['put', `/api/agents/${agent.id}`, { email: 'taken-over@example.com' }],
    ['put', `/api/agents/${agent.id}`, { email, password: 'admins-choice-99' }],
    ['post', `/api/agents/${agent.id}/account-setup`, { email }],
    ['post', '/api/auth/change-password', { currentPassword: 'sunny-porch-42', newPassword: 'admins-choice-99' }],
  ] as const) {
    expect((await admin[method](path).send(body).expect(403)).body.code).toBe('auth.impersonation_read_only');
  }
  expect(await t.db('agents').where({ id: agent.id }).first()).toMatchObject({ email });
  expect(await t.db('agentEmailVerifications').where({ agentId: agent.id })).toEqual([]);
  expect((await requestsAudited(agent.id)).map((r) => r.details.status)).toEqual([403, 403, 403, 403]);
});

it('ends with the admin session: once it has expired, the browser is signed in as nobody', async () => {
  const { admin, agent } = await viewingAs();
  await admin.get(`/api/agents/${agent.id}/leads`).expect(200);
  // The admin session's 30 minutes are over.
  await t.db('sessions').whereRaw(`sid like 'admin:%'`).update({ expiresAt: new Date(Date.now() - 1000) });
  await admin.get(`/api/agents/${agent.id}/leads`).expect(404);
  await admin.get('/api/auth/me').expect(401);
  expect(await t.db('auditLog').where({ action: 'admin.login_as_expired', targetId: String(agent.id) }).first()).toMatchObject({ actorType: 'admin' });
});

it('lives no longer than the admin session, and ends at admin logout', async () => {
  const { admin, agent } = await viewingAs();
  const adminRow = await t.db('sessions').whereRaw(`sid like 'admin:%'`).orderBy('updatedAt', 'desc').first();
  const impersonation = await t.db('sessions').whereRaw(`data->>'impersonatedBy' = 'admin'`).whereRaw(`data->>'agentId' = ?`, [String(agent.id)]).first();
  expect(impersonation.data.impersonationAdminSid).toBe(adminRow.sid);
  // Its cookie and row last what the admin session had left (30 minutes at most), not an agent session's 30 days.
  expect(impersonation.data._maxAge).toBeGreaterThan(0);
  expect(impersonation.data._maxAge).toBeLessThanOrEqual(ADMIN_SESSION_MINUTES * 60 * 1000);

  await admin.post('/api/admin/logout').expect(200);
  expect(await t.db('sessions').where({ sid: impersonation.sid }).first()).toBeUndefined();
  await admin.get('/api/auth/me').expect(401);
  await admin.get(`/api/agents/${agent.id}/leads`).expect(404);
});

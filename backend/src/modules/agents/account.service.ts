import type { AgentUpdatePayload } from '@app/contracts';
import { EMAIL_VERIFICATION_TTL_MINUTES, PROFILE_EMAIL_MESSAGE } from '@app/contracts';
import { forbidden, validationFailed } from '../../platform/errors';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import { revokeAgentSessions } from '../../platform/http/session-store';
import { Agent } from './agent.model';
import { choosePassword, commonPassword, currentPasswordWrong, emailTaken, impersonationRefused, passwordAlreadySet, verificationInvalid } from './agents.errors';
import { consumeVerification, dropPendingVerifications, requestedBy, requestVerification, type VerificationPurpose } from './email-verifications';
import { dummyPasswordHash, hashPassword, isCommonPassword, verifyPassword } from './passwords';

export { EMAIL_TAKEN_MESSAGE, PASSWORD_ALREADY_SET_MESSAGE } from './agents.errors';
export const MLS_EMAIL_REQUIRED_MESSAGE = 'Use the email address on your MLS profile to set up this account.';
export const MLS_ID_LOCKED_MESSAGE = 'The MLS ID of an agent found in the MLS cannot be changed.';
export { INVALID_CREDENTIALS_MESSAGE } from './agents.errors';

/**
 * The agents_login_email_unique index: another account got the address between our check and our write.
 * Objection wraps driver errors (UniqueViolationError keeps `constraint`, the driver's own error is
 * `nativeError`), so both shapes are read.
 */
function isLoginEmailConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; nativeError?: { code?: string; constraint?: string } };
  const code = e.code ?? e.nativeError?.code;
  const constraint = e.constraint ?? e.nativeError?.constraint;
  return (code === '23505' || e.constructor?.name === 'UniqueViolationError') && constraint === 'agents_login_email_unique';
}

/** Is `email` the login of an account (an agent with a password) other than `agentId`? */
async function loginEmailUsedByAnother(email: string, agentId: number, db?: Db): Promise<boolean> {
  const other = await Agent.query(db)
    .whereRaw('lower(email) = ?', [email.toLowerCase()])
    .whereNotNull('passwordHash')
    .whereNot('id', agentId)
    .first();
  return !!other;
}

type ProfilePatch = Partial<Pick<Agent, 'name' | 'email' | 'phone' | 'brokerage' | 'profileImageUrl' | 'logoUrl' | 'mlsId'>>;

/** Branding and profile fields present in the payload: absent = unchanged, null = cleared (name cannot be). */
function profilePatch(input: AgentUpdatePayload): ProfilePatch {
  const patch: ProfilePatch = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.email !== undefined) patch.email = input.email;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.brokerage !== undefined) patch.brokerage = input.brokerage;
  if (input.profileImageUrl !== undefined) patch.profileImageUrl = input.profileImageUrl;
  if (input.logoUrl !== undefined) patch.logoUrl = input.logoUrl;
  if (input.mlsId !== undefined) patch.mlsId = input.mlsId;
  return patch;
}

/** Refuse the most common passwords (after the spec's 6-character minimum, which the schema checks). */
export function assertUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) throw commonPassword(field);
}

export interface VerificationSentView {
  status: 'verification_sent';
  email: string;
  expiresInMinutes: number;
}

const sentTo = (email: string): VerificationSentView => ({ status: 'verification_sent', email, expiresInMinutes: EMAIL_VERIFICATION_TTL_MINUTES });

export type AgentUpdateResult =
  | { kind: 'updated'; agent: Agent }
  /** Account setup: nothing is a login yet; the link went to the email (DESIGN §6). */
  | { kind: 'verification_sent'; agent: Agent; sent: VerificationSentView }
  /** The login email changes only when the new address is confirmed; the other fields changed now. */
  | { kind: 'email_change_sent'; agent: Agent; sent: VerificationSentView };

/**
 * PUT /api/agents/:id for an agent the caller may access: branding (wizard step 4), profile edit
 * (dashboard) or account setup (email + password, success screen).
 */
export async function updateAgent(
  deps: { db: Db; queue: Queue },
  agent: Agent,
  input: AgentUpdatePayload,
  opts: { impersonated?: boolean; requesterNonce?: string } = {},
): Promise<AgentUpdateResult> {
  // An MLS agent's identity is the MLS's: the ID cannot be swapped for another member's.
  if (input.mlsId !== undefined && agent.source === 'mls' && input.mlsId !== agent.mlsId) {
    throw forbidden('agents.mls_id_locked', MLS_ID_LOCKED_MESSAGE);
  }
  const patch = profilePatch(input);

  if (input.password !== undefined) return requestAccountSetup(deps, agent, input.email!, input.password, patch, opts.requesterNonce);

  let newLoginEmail: string | undefined;
  if (agent.hasPassword && patch.email !== undefined) {
    // The email is the account's login: it can change, not disappear; the new one must be confirmed.
    if (!patch.email) throw validationFailed({ email: PROFILE_EMAIL_MESSAGE });
    if (patch.email.toLowerCase() !== (agent.email ?? '').toLowerCase()) {
      if (opts.impersonated) throw impersonationRefused();
      newLoginEmail = patch.email;
    }
    delete patch.email;
  }
  const updated = Object.keys(patch).length ? await agent.$query().patchAndFetch(patch) : agent;
  if (newLoginEmail) {
    await requestVerification(deps.db, deps.queue, { agentId: agent.id, purpose: 'email_change', email: newLoginEmail, requesterNonce: opts.requesterNonce });
    return { kind: 'email_change_sent', agent: updated, sent: sentTo(newLoginEmail) };
  }
  return { kind: 'updated', agent: updated };
}

/**
 * Account setup: the first password (argon2id) and the login email, both kept in the verification until
 * the emailed link is opened (until then the agent has no password and the wizard session keeps its
 * access). Whether the email is already another account's login is told only to the email's owner, when
 * the link is opened: this answer is the same for every address, so it cannot be used to probe them.
 * - An MLS agent whose MLS record has an email must use that email (public in the MLS search anyway).
 * - Only the first password: an account that has one is reached by logging in (or a password reset).
 */
async function requestAccountSetup(
  deps: { db: Db; queue: Queue },
  agent: Agent,
  email: string,
  password: string,
  patch: ProfilePatch,
  requesterNonce: string | undefined,
): Promise<AgentUpdateResult> {
  if (agent.hasPassword) throw passwordAlreadySet();
  if (agent.source === 'mls' && agent.mlsEmail && agent.mlsEmail.toLowerCase() !== email.toLowerCase()) {
    throw forbidden('agents.mls_email_required', MLS_EMAIL_REQUIRED_MESSAGE);
  }
  assertUncommonPassword(password);
  delete patch.email;
  const updated = Object.keys(patch).length ? await agent.$query().patchAndFetch(patch) : agent;
  await requestVerification(deps.db, deps.queue, { agentId: agent.id, purpose: 'account_setup', email, passwordHash: await hashPassword(password), requesterNonce });
  return { kind: 'verification_sent', agent: updated, sent: sentTo(email.toLowerCase()) };
}

/**
 * POST /api/auth/verify-email: the owner of the email opened the link. Account setup sets the email and a
 * password; an email change moves the login. Either way every other session's access to the agent ends
 * (DESIGN §6).
 * - The password chosen with the request is used only in the browser that made the request. Opened
 *   anywhere else, the link's opener chooses the password: so the real owner opening a stranger's setup
 *   link never ends up with a password the stranger knows.
 * - `logIn` tells the caller whether to log this browser in: always for account setup (its password is
 *   known here), for an email change only in the browser that asked for it.
 */
export async function verifyEmail(
  db: Db,
  input: { token: string; password?: string; requesterNonce?: string },
): Promise<{ agent: Agent; purpose: VerificationPurpose; logIn: boolean }> {
  if (input.password !== undefined) assertUncommonPassword(input.password);
  const openerHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
  return db.transaction(async (trx) => {
    const v = await consumeVerification(trx, input.token, ['account_setup', 'email_change']);
    if (!v) throw verificationInvalid();
    const sameBrowser = requestedBy(v, input.requesterNonce);
    const agent = await Agent.query(trx).findById(v.agentId).forUpdate();
    if (!agent) throw verificationInvalid();
    if (v.purpose === 'account_setup' && agent.hasPassword) throw passwordAlreadySet();
    if (v.purpose === 'email_change' && !agent.hasPassword) throw verificationInvalid();
    let passwordHash: string | undefined;
    if (v.purpose === 'account_setup') {
      passwordHash = openerHash ?? (sameBrowser ? v.passwordHash! : undefined);
      // Rolls back: the link stays usable once the opener has chosen a password.
      if (!passwordHash) throw choosePassword();
    }
    if (await loginEmailUsedByAnother(v.email, agent.id, trx)) throw emailTaken();
    try {
      // Savepoint: a lost race on the unique login index is a 409, and the transaction stays usable.
      await trx.transaction(async (sp) => {
        await Agent.query(sp)
          .patch(passwordHash ? { email: v.email, passwordHash } : { email: v.email })
          .where('id', agent.id);
      });
    } catch (err) {
      if (isLoginEmailConflict(err)) throw emailTaken();
      throw err;
    }
    if (v.purpose === 'account_setup') await dropPendingVerifications(trx, agent.id, ['account_setup']);
    await revokeAgentSessions(trx, agent.id);
    const updated = (await Agent.query(trx).findById(agent.id))!;
    return { agent: updated, purpose: v.purpose, logIn: v.purpose === 'account_setup' || sameBrowser };
  });
}

/**
 * POST /api/auth/forgot-password: a reset link for the account with this login email, if there is one.
 * The caller answers the same either way, and the email is sent by a job, so neither the answer nor its
 * time tells whether the address has an account.
 */
export async function requestPasswordReset(deps: { db: Db; queue: Queue }, email: string): Promise<void> {
  const agent = await Agent.query(deps.db).whereRaw('lower(email) = ?', [email.toLowerCase()]).whereNotNull('passwordHash').first();
  if (agent) await requestVerification(deps.db, deps.queue, { agentId: agent.id, purpose: 'password_reset', email: email.toLowerCase() });
}

/** POST /api/auth/reset-password: a new password from the emailed link; every session of the agent ends. */
export async function resetPassword({ db }: { db: Db }, token: string, password: string): Promise<Agent> {
  assertUncommonPassword(password);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const v = await consumeVerification(trx, token, ['password_reset']);
    if (!v) throw verificationInvalid();
    const agent = await Agent.query(trx).findById(v.agentId).forUpdate();
    // The login must still be the address the link was sent to.
    if (!agent || !agent.hasPassword || (agent.email ?? '').toLowerCase() !== v.email) throw verificationInvalid();
    await Agent.query(trx).patch({ passwordHash }).where('id', agent.id);
    await dropPendingVerifications(trx, agent.id, ['password_reset']);
    await revokeAgentSessions(trx, agent.id);
    return agent;
  });
}

/** POST /api/auth/change-password: the current password, then a new one; every other session ends. */
export async function changePassword({ db }: { db: Db }, agentId: number, currentPassword: string, newPassword: string): Promise<Agent> {
  const agent = await Agent.query(db).findById(agentId);
  if (!agent?.passwordHash || !(await verifyPassword(agent.passwordHash, currentPassword))) throw currentPasswordWrong();
  assertUncommonPassword(newPassword, 'newPassword');
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (trx) => {
    await Agent.query(trx).patch({ passwordHash }).where('id', agentId);
    await dropPendingVerifications(trx, agentId, ['password_reset']);
    await revokeAgentSessions(trx, agentId);
    return agent;
  });
}

/**
 * The account with this login email if the password is right, else null. An unknown email is
 * verified against a dummy hash, so both answers take the same time.
 */
export async function verifyLogin(email: string, password: string): Promise<Agent | null> {
  const agent = await Agent.query().whereRaw('lower(email) = ?', [email.toLowerCase()]).whereNotNull('passwordHash').first();
  const ok = await verifyPassword(agent?.passwordHash ?? (await dummyPasswordHash()), password);
  return agent && ok ? agent : null;
}

import type { AgentUpdatePayload } from '@app/contracts';
import { PROFILE_EMAIL_MESSAGE } from '@app/contracts';
import { conflict, forbidden, validationFailed } from '../../platform/errors';
import { Agent } from './agent.model';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';

export const MLS_EMAIL_REQUIRED_MESSAGE = 'Use the email address on your MLS profile to set up this account.';
export const EMAIL_TAKEN_MESSAGE = 'An account with this email address already exists. Please log in.';
export const MLS_ID_LOCKED_MESSAGE = 'The MLS ID of an agent found in the MLS cannot be changed.';
export const PASSWORD_ALREADY_SET_MESSAGE = 'This account already has a password. Please log in.';
export { INVALID_CREDENTIALS_MESSAGE } from './agents.errors';

const emailTaken = () => conflict('agents.email_taken', EMAIL_TAKEN_MESSAGE);

/** The agents_login_email_unique index: another account got the address between our check and our write. */
function isLoginEmailConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === 'agents_login_email_unique';
}

/** Is `email` the login of an account (an agent with a password) other than `agentId`? */
async function loginEmailUsedByAnother(email: string, agentId: number): Promise<boolean> {
  const other = await Agent.query()
    .whereRaw('lower(email) = ?', [email.toLowerCase()])
    .whereNotNull('passwordHash')
    .whereNot('id', agentId)
    .first();
  return !!other;
}

/** Branding and profile fields present in the payload: absent = unchanged, null = cleared (name cannot be). */
function profilePatch(input: AgentUpdatePayload): Partial<Pick<Agent, 'name' | 'email' | 'phone' | 'brokerage' | 'profileImageUrl' | 'logoUrl' | 'mlsId'>> {
  const patch: Partial<Pick<Agent, 'name' | 'email' | 'phone' | 'brokerage' | 'profileImageUrl' | 'logoUrl' | 'mlsId'>> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.email !== undefined) patch.email = input.email;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.brokerage !== undefined) patch.brokerage = input.brokerage;
  if (input.profileImageUrl !== undefined) patch.profileImageUrl = input.profileImageUrl;
  if (input.logoUrl !== undefined) patch.logoUrl = input.logoUrl;
  if (input.mlsId !== undefined) patch.mlsId = input.mlsId;
  return patch;
}

export interface AgentUpdateResult {
  agent: Agent;
  /** True when this request set the first password: the caller logs the session in with a new id. */
  accountCreated: boolean;
}

/**
 * PUT /api/agents/:id for an agent the caller may access: branding (wizard step 4), profile edit
 * (dashboard) or account setup (email + password, success screen).
 */
export async function updateAgent(agent: Agent, input: AgentUpdatePayload): Promise<AgentUpdateResult> {
  // An MLS agent's identity is the MLS's: the ID cannot be swapped for another member's.
  if (input.mlsId !== undefined && agent.source === 'mls' && input.mlsId !== agent.mlsId) {
    throw forbidden('agents.mls_id_locked', MLS_ID_LOCKED_MESSAGE);
  }
  const patch = profilePatch(input);

  if (input.password !== undefined) {
    return { agent: await setUpAccount(agent, input.email!, input.password, patch), accountCreated: true };
  }

  if (agent.hasPassword && patch.email !== undefined) {
    // The email is the account's login: it can change, not disappear, and not become another account's.
    if (!patch.email) throw validationFailed({ email: PROFILE_EMAIL_MESSAGE });
    if (await loginEmailUsedByAnother(patch.email, agent.id)) throw emailTaken();
  }
  if (Object.keys(patch).length === 0) return { agent, accountCreated: false };
  try {
    return { agent: await agent.$query().patchAndFetch(patch), accountCreated: false };
  } catch (err) {
    if (isLoginEmailConflict(err)) throw emailTaken();
    throw err;
  }
}

/**
 * Account setup: the first password (argon2id) and the login email.
 * - An MLS agent whose MLS record has an email must use that email: a stranger who found a real
 *   agent in the public MLS cannot turn it into their own account.
 * - The email must not be another account's login.
 * - Only the first password: an account that has one is reached by logging in.
 */
async function setUpAccount(agent: Agent, email: string, password: string, patch: ReturnType<typeof profilePatch>): Promise<Agent> {
  if (agent.hasPassword) throw conflict('agents.password_already_set', PASSWORD_ALREADY_SET_MESSAGE);
  if (agent.source === 'mls' && agent.mlsEmail && agent.mlsEmail.toLowerCase() !== email.toLowerCase()) {
    throw forbidden('agents.mls_email_required', MLS_EMAIL_REQUIRED_MESSAGE);
  }
  if (await loginEmailUsedByAnother(email, agent.id)) throw emailTaken();
  const passwordHash = await hashPassword(password);
  try {
    // Conditional on "no password yet": of two concurrent setups only one sets it.
    const updated = await Agent.query()
      .patch({ ...patch, email, passwordHash })
      .where('id', agent.id)
      .whereNull('passwordHash');
    if (updated === 0) throw conflict('agents.password_already_set', PASSWORD_ALREADY_SET_MESSAGE);
  } catch (err) {
    if (isLoginEmailConflict(err)) throw emailTaken();
    throw err;
  }
  return (await Agent.query().findById(agent.id))!;
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

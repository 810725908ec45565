import type { Knex } from 'knex';
import type { AgentUpdatePayload } from '@app/contracts';
import { EMAIL_VERIFICATION_TTL_MINUTES, PROFILE_EMAIL_MESSAGE, maskEmail } from '@app/contracts';
import { conflict, forbidden, validationFailed } from '../../platform/errors';
import type { Db } from '../../platform/db/knex';
import type { Queue } from '../../platform/jobs/queue';
import { revokeAgentSessions } from '../../platform/http/session-store';
import { Agent } from './agent.model';
import { commonPassword, currentPasswordWrong, emailTaken, impersonationRefused, loginRequired, verificationInvalid } from './agents.errors';
import { draftFieldsOf, saveDraft, takeDraft, type DraftFields } from './drafts';
import { consumeVerification, dropPendingVerifications, requestedBy, requestVerification, VERIFICATIONS_TABLE, type VerificationPurpose } from './email-verifications';
import type { IdentityHooks } from './identity-hooks';
import { dummyPasswordHash, hashPassword, isCommonPassword, verifyPassword } from './passwords';

export { EMAIL_TAKEN_MESSAGE, PASSWORD_ALREADY_SET_MESSAGE } from './agents.errors';
export const MLS_EMAIL_REQUIRED_MESSAGE = 'Use the email address on your MLS profile to set up this account.';
export const MLS_EMAIL_MISSING_MESSAGE =
  'The MLS publishes no email address for this agent, so we cannot confirm who owns it. Please contact support.';
export const SETUP_REQUIRED_MESSAGE = 'Set up the account with your email address first: we will send you a link.';
export const MLS_ID_LOCKED_MESSAGE = 'The MLS ID of an agent found in the MLS cannot be changed.';
export { INVALID_CREDENTIALS_MESSAGE } from './agents.errors';

/** A unique index on the login email (password accounts) or the verified email of manual agents: another agent got it first. */
function isEmailConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; nativeError?: { code?: string; constraint?: string } };
  const code = e.code ?? e.nativeError?.code;
  const constraint = e.constraint ?? e.nativeError?.constraint;
  return (code === '23505' || e.constructor?.name === 'UniqueViolationError') && (constraint === 'agents_login_email_unique' || constraint === 'agents_manual_verified_email_unique');
}

/** Is `email` the login of an account (an agent with a password) other than `agentId`? */
async function loginEmailUsedByAnother(email: string, agentId: number, db?: Db): Promise<boolean> {
  const other = await Agent.query(db).whereRaw('lower(email) = ?', [email.toLowerCase()]).whereNotNull('passwordHash').whereNot('id', agentId).first();
  return !!other;
}

type ProfilePatch = Partial<Pick<Agent, 'name' | 'email' | 'phone' | 'brokerage' | 'profileImageUrl' | 'logoUrl' | 'mlsId'>>;

/** Branding and profile fields present in the payload: absent = unchanged, null = cleared (name cannot be). */
function profilePatch(input: AgentUpdatePayload | DraftFields): ProfilePatch {
  const patch: ProfilePatch = { ...(draftFieldsOf(input) as ProfilePatch) };
  if (patch.name === null) delete patch.name;
  if ('mlsId' in input && input.mlsId !== undefined) patch.mlsId = input.mlsId;
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

type Deps = { db: Db; queue: Queue };

export type AgentUpdateResult =
  | { kind: 'updated'; agent: Agent }
  /** The login email changes only when the new address is confirmed; the other fields changed now. */
  | { kind: 'email_change_sent'; agent: Agent; sent: VerificationSentView };

/**
 * PUT /api/agents/:id from a session signed in as the agent: branding (wizard step 4) and the dashboard's profile
 * edit, written to the agent (its public pages show them once the identity is verified). The email is where the
 * product writes to the agent and its login: a new one takes effect only once its link is opened, and an admin's
 * Login As may not change it.
 */
export async function updateSignedInAgent(deps: Deps, agent: Agent, input: AgentUpdatePayload, opts: { impersonated: boolean; requesterHash: string | null }): Promise<AgentUpdateResult> {
  // An MLS agent's identity is the MLS's: the ID cannot be swapped for another member's.
  if (input.mlsId !== undefined && agent.source === 'mls' && input.mlsId !== agent.mlsId) {
    throw forbidden('agents.mls_id_locked', MLS_ID_LOCKED_MESSAGE);
  }
  const patch = profilePatch(input);
  let newEmail: string | undefined;
  if (patch.email !== undefined) {
    const current = (agent.email ?? '').toLowerCase();
    if (!patch.email) {
      // The address the product writes to can change, not disappear.
      if (current) throw validationFailed({ email: PROFILE_EMAIL_MESSAGE });
    } else if (patch.email.toLowerCase() !== current) {
      if (opts.impersonated) throw impersonationRefused();
      newEmail = patch.email;
    }
    delete patch.email;
  }
  const updated = Object.keys(patch).length ? await agent.$query(deps.db).patchAndFetch(patch) : agent;
  if (newEmail) {
    await requestVerification(deps.db, deps.queue, { agentId: agent.id, purpose: 'email_change', email: newEmail, requesterHash: opts.requesterHash });
    return { kind: 'email_change_sent', agent: updated, sent: sentTo(newEmail.toLowerCase()) };
  }
  return { kind: 'updated', agent: updated };
}

/** PUT /api/agents/:id from a wizard browser: its own branding draft (DESIGN §3); the agent is left as it is. */
export async function saveBrandingDraft(deps: Deps, agent: Agent, input: AgentUpdatePayload, browserHash: string): Promise<DraftFields> {
  // The MLS ID is no branding: an MLS agent's is the MLS's, a manual agent's is the signed-in agent's to change.
  if (input.mlsId !== undefined && input.mlsId !== agent.mlsId) throw agent.source === 'mls' ? forbidden('agents.mls_id_locked', MLS_ID_LOCKED_MESSAGE) : loginRequired();
  return saveDraft(deps.db, agent.id, browserHash, draftFieldsOf(input));
}

/**
 * The address that proves who owns an identity (DESIGN §3, the trust anchor): the verified email of a verified
 * agent; for an MLS identity nobody verified, the email the MLS publishes for the member; a manual agent nobody
 * verified has none yet (its account setup names one).
 */
function anchorOf(agent: Agent): string | null {
  if (agent.verified) return agent.email?.toLowerCase() ?? null;
  return agent.source === 'mls' ? agent.mlsEmail?.toLowerCase() ?? null : null;
}

/**
 * Account setup (the success screen's "Complete Your Account Setup"; DESIGN §3): a single-use link to the
 * identity's email, which verifies it and signs in the browser that opens it. A password is optional; chosen
 * here, it counts only when the link is opened in this browser (opened elsewhere, the opener never inherits a
 * password a stranger chose).
 * - an MLS identity: the email the MLS publishes, and no other (the typed one must be it);
 * - a manual agent: the typed email (verified by the link; a manual agent already verified with it absorbs
 *   this one when the link is opened);
 * - an identity that is verified already: a sign-in link to its verified address (masked in the answer).
 */
export async function requestAccountSetup(deps: Deps, agent: Agent, input: { email: string; password?: string }, requesterHash: string | null): Promise<VerificationSentView> {
  if (agent.verified) return requestSignInLinkFor(deps, agent, requesterHash);
  let email = input.email.trim().toLowerCase();
  if (agent.source === 'mls') {
    if (!agent.mlsEmail) throw forbidden('agents.mls_email_missing', MLS_EMAIL_MISSING_MESSAGE);
    if (agent.mlsEmail.toLowerCase() !== email) throw forbidden('agents.mls_email_required', MLS_EMAIL_REQUIRED_MESSAGE);
    email = agent.mlsEmail.toLowerCase();
  }
  if (input.password !== undefined) assertUncommonPassword(input.password);
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  await requestVerification(deps.db, deps.queue, { agentId: agent.id, purpose: 'account_setup', email, passwordHash, requesterHash });
  return sentTo(email);
}

/**
 * A sign-in link for an identity, asked for by a wizard browser (the success screen of an agent who has an
 * account): sent to the identity's own address, which the answer shows masked (the browser may be anyone's).
 */
export async function requestSignInLinkFor(deps: Deps, agent: Agent, requesterHash: string | null): Promise<VerificationSentView> {
  const to = anchorOf(agent);
  if (!to) throw conflict('agents.setup_required', SETUP_REQUIRED_MESSAGE);
  await requestVerification(deps.db, deps.queue, { agentId: agent.id, purpose: 'sign_in', email: to, requesterHash });
  return sentTo(maskEmail(to)!);
}

/**
 * The identities an address may sign in to (the login page's "Email me a sign-in link"): verified agents with
 * this email, and MLS identities nobody verified whose MLS-published email it is (opening the link verifies them).
 * A team address the MLS publishes for several members reaches each (one link each, a few at most).
 */
export async function identitiesForAddress(db: Db | Knex.Transaction, email: string): Promise<Agent[]> {
  const e = email.trim().toLowerCase();
  return Agent.query(db)
    .where((q) =>
      q
        .where((v) => v.whereNotNull('verifiedAt').whereRaw('lower(email) = ?', [e]))
        .orWhere((m) => m.whereNull('verifiedAt').where('source', 'mls').whereRaw('lower(mls_email) = ?', [e])),
    )
    .orderBy('id')
    .limit(5);
}

/** Merge agent `fromId` into `intoId`: every module moves its rows, the merge is recorded, and `fromId` goes. */
async function mergeAgent(trx: Knex.Transaction, hooks: IdentityHooks, fromId: number, intoId: number, reason: 'verified_email'): Promise<void> {
  const moved: Record<string, number> = {};
  for (const mover of hooks.movers) Object.assign(moved, await mover(trx, fromId, intoId));
  await trx('agentMerges').insert({ survivorId: intoId, mergedId: fromId, reason, moved: JSON.stringify(moved) });
  await revokeAgentSessions(trx, fromId);
  await trx('agents').where({ id: fromId }).delete();
}

/** The agent's fields a draft sets when it is applied; a drafted email becomes an email change (its own link). */
function appliedDraft(draft: DraftFields | null, verifiedEmail: string): { patch: ProfilePatch; newEmail: string | null } {
  if (!draft) return { patch: {}, newEmail: null };
  const patch = profilePatch(draft);
  const drafted = patch.email;
  delete patch.email;
  return { patch, newEmail: drafted && drafted.toLowerCase() !== verifiedEmail ? drafted.toLowerCase() : null };
}

/**
 * Does the link still go to the identity's address? An email change proves a verified agent's new address; other
 * links go to the verified agent's email, or to the MLS's own for an MLS identity nobody verified. A manual agent
 * nobody verified has an address only through its account setup.
 */
function linkStillValid(v: { purpose: VerificationPurpose; email: string }, agent: Agent): boolean {
  if (v.purpose === 'email_change') return agent.verified;
  if (agent.verified) return (agent.email ?? '').toLowerCase() === v.email;
  if (agent.source === 'mls') return (agent.mlsEmail ?? '').toLowerCase() === v.email;
  return v.purpose === 'account_setup';
}

/**
 * POST /api/auth/verify-email: someone opened a link sent to an agent's email (account setup, sign-in, email
 * change). Opening it proves the address (DESIGN §3, the trust anchor) and signs this browser in, with no
 * password needed:
 * - an identity nobody verified becomes verified (`verified_at`), with that address as its email; what waited
 *   for a verified address goes out (hooks.verified); a manual agent whose address another verified manual agent
 *   has merges into that one (signed in as the survivor);
 * - opened in the browser that asked for it, that browser's branding draft is applied (a drafted email becomes
 *   an email change with its own link) and the password chosen with the request is set; opened anywhere else,
 *   nothing of the request's browser is applied;
 * - a password typed by the opener is set when the agent has none;
 * - verifying, changing the email or setting a password ends every other session's access (as before);
 *   a plain sign-in of a verified agent is a login like a password's and ends nothing.
 */
export async function verifyEmail(
  deps: Deps & { hooks: IdentityHooks },
  input: { token: string; password?: string; browserHash: string | null },
): Promise<{ agent: Agent; purpose: VerificationPurpose; logIn: boolean }> {
  if (input.password !== undefined) assertUncommonPassword(input.password);
  const openerHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
  return deps.db.transaction(async (trx) => {
    const v = await consumeVerification(trx, input.token, ['account_setup', 'email_change', 'sign_in']);
    if (!v) throw verificationInvalid();
    const sameBrowser = requestedBy(v, input.browserHash);
    const agent = await Agent.query(trx).findById(v.agentId).forUpdate();
    if (!agent) throw verificationInvalid();
    if (!linkStillValid(v, agent)) throw verificationInvalid();
    const newlyVerified = !agent.verified;
    let target = agent;
    // The request's browser's draft, applied only when that browser opened the link.
    let draft = sameBrowser ? await takeDraft(trx, agent.id, input.browserHash) : null;
    if (newlyVerified && agent.source === 'manual') {
      // A manual agent is identified by its verified email: one that has it already absorbs this one.
      const existing = await Agent.query(trx).where('source', 'manual').whereNotNull('verifiedAt').whereRaw('lower(email) = ?', [v.email]).forUpdate().first();
      if (existing) {
        await mergeAgent(trx, deps.hooks, agent.id, existing.id, 'verified_email');
        target = existing;
        if (sameBrowser) draft = { ...(await takeDraft(trx, existing.id, input.browserHash)), ...draft };
      }
    }
    // The address the link went to is the agent's email from now on (a merge's survivor has it already).
    const verifiedEmail = v.email;
    const verifiesNow = !target.verified;
    const passwordHash = target.hasPassword ? undefined : (openerHash ?? (sameBrowser && v.purpose === 'account_setup' ? v.passwordHash ?? undefined : undefined));
    if (passwordHash && (await loginEmailUsedByAnother(verifiedEmail, target.id, trx))) throw emailTaken();
    const { patch, newEmail } = appliedDraft(draft, verifiedEmail);
    try {
      // Savepoint: a lost race on a unique email index is a 409, and the transaction stays usable.
      await trx.transaction(async (sp) => {
        await Agent.query(sp)
          .patch({ ...patch, email: verifiedEmail, ...(verifiesNow ? { verifiedAt: new Date() } : {}), ...(passwordHash ? { passwordHash } : {}) })
          .where('id', target.id);
      });
    } catch (err) {
      if (isEmailConflict(err)) throw emailTaken();
      throw err;
    }
    if (passwordHash) await dropPendingVerifications(trx, target.id, ['account_setup']);
    if (newEmail) await requestVerification(trx, deps.queue, { agentId: target.id, purpose: 'email_change', email: newEmail, requesterHash: input.browserHash });
    if (verifiesNow || v.purpose === 'email_change' || passwordHash) await revokeAgentSessions(trx, target.id);
    // What waited for a verified address goes now (a merge brought the merged agent's along).
    if (newlyVerified) await deps.hooks.verified(trx, target.id);
    const updated = (await Agent.query(trx).findById(target.id))!;
    return { agent: updated, purpose: v.purpose, logIn: true };
  });
}

/**
 * Google's verified email as proof of an identity (Continue with Google): an MLS identity nobody verified whose
 * MLS-published email Google confirms becomes verified, like opening a link sent to it.
 */
export async function verifyByGoogle(deps: { db: Db; hooks: IdentityHooks }, agent: Agent, googleId: string, email: string): Promise<Agent> {
  return deps.db.transaction(async (trx) => {
    const locked = await Agent.query(trx).findById(agent.id).forUpdate();
    if (!locked) throw verificationInvalid();
    const newlyVerified = !locked.verified;
    await Agent.query(trx)
      .patch({ googleId, ...(newlyVerified ? { verifiedAt: new Date(), email } : {}) })
      .where('id', locked.id);
    if (newlyVerified) {
      await revokeAgentSessions(trx, locked.id);
      await deps.hooks.verified(trx, locked.id);
    }
    return (await Agent.query(trx).findById(locked.id))!;
  });
}

/** A new login email waiting for its link to be opened (the dashboard says where emails go until then). */
export async function pendingEmailOf(db: Db, agentId: number): Promise<string | null> {
  const row = await db(VERIFICATIONS_TABLE)
    .where({ agentId, purpose: 'email_change' })
    .whereNull('usedAt')
    .where('expiresAt', '>', db.fn.now())
    .orderBy('id', 'desc')
    .first('email');
  return row?.email ?? null;
}

/**
 * POST /api/auth/forgot-password: a reset link for the verified agent with this email, if there is one (an agent
 * who signs in by emailed links sets a first password this way too). The caller answers the same either way,
 * and the email is sent by a job, so neither the answer nor its time tells whether the address has an account.
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const agent = await Agent.query(deps.db).whereRaw('lower(email) = ?', [email.toLowerCase()]).whereNotNull('verifiedAt').orderBy('id').first();
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
    // The email must still be the verified address the link was sent to.
    if (!agent || !agent.verified || (agent.email ?? '').toLowerCase() !== v.email) throw verificationInvalid();
    if (!agent.hasPassword && (await loginEmailUsedByAnother(v.email, agent.id, trx))) throw emailTaken();
    await Agent.query(trx).patch({ passwordHash }).where('id', agent.id);
    await dropPendingVerifications(trx, agent.id, ['password_reset']);
    await revokeAgentSessions(trx, agent.id);
    return agent;
  });
}

/**
 * POST /api/auth/change-password: the current password, then a new one; every other session ends. An agent
 * signed in by an emailed link who has no password yet sets the first one without a current password.
 */
export async function changePassword({ db }: { db: Db }, agentId: number, currentPassword: string | undefined, newPassword: string): Promise<Agent> {
  const agent = await Agent.query(db).findById(agentId);
  if (!agent) throw currentPasswordWrong();
  if (agent.passwordHash) {
    if (currentPassword === undefined || !(await verifyPassword(agent.passwordHash, currentPassword))) throw currentPasswordWrong();
  } else if (agent.email && (await loginEmailUsedByAnother(agent.email, agent.id, db))) {
    throw emailTaken();
  }
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

import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Context } from 'koa';

/** What the server keeps in a browser session (server-side store; the cookie carries only its id). */
export interface SessionData {
  /** The agent this session is signed in as (password, Google, an opened email link, or admin "login as"). */
  agentId?: number;
  /**
   * Agents this browser found in the MLS search or made by hand in the wizard (DESIGN §3): it has the wizard's
   * draft access to them, never the dashboard.
   */
  wizardAgentIds?: number[];
  /**
   * A random value naming this browser (kept across sign-ins): its branding drafts, the campaigns it created and
   * the email links it asked for carry its hash. Made at the browser's first use of the wizard.
   */
  browserKey?: string;
  /**
   * Set when an admin's Login As created this session (DESIGN §6): it acts as the agent, but cannot change the
   * password, the email, integrations or secrets, it ends with the admin session, and every request under it is
   * audited (platform/http/impersonation.ts). The admin's own session is a separate cookie, never this one.
   */
  impersonatedBy?: 'admin';
  /** When the Login As began (ISO), for the audit trail. */
  impersonationStartedAt?: string;
  /** The admin session (its `sessions` row) the Login As came from: the impersonation lives only as long as it. */
  impersonationAdminSid?: string;
}

export interface Actor {
  /** The agent this browser is signed in as: the dashboard and everything agent-scoped. */
  loggedInAgentId: number | null;
  /** Agents this browser has the wizard's draft access to (see SessionData.wizardAgentIds). */
  wizardAgentIds: number[];
  /** SHA-256 of the browser's key, or null before the browser has one (it owns no draft and no campaign yet). */
  browserHash: string | null;
  /** This session is an admin's Login As (see SessionData.impersonatedBy). */
  impersonating: boolean;
}

export function sessionOf(ctx: Context): SessionData {
  return (ctx.session ?? {}) as unknown as SessionData;
}

/**
 * SHA-256 (hex) of a browser key, a link's token or a requester nonce: only hashes are stored in tables.
 * Node's one-shot `crypto.hash` (every agent read hashes its browser key): a fifth of createHash's cost.
 */
export function hashOf(value: string): string {
  return crypto.hash('sha256', value, 'hex');
}

/**
 * Browser keys' hashes, by key: every request of a browser hashes the same key. The hash is a pure function
 * of the key, so nothing goes stale; the last 10,000 keys are kept (the session cache's bound).
 */
const BROWSER_HASHES = new LRUCache<string, string>({ max: 10_000 });

function browserHashOf(browserKey: string): string {
  let hash = BROWSER_HASHES.get(browserKey);
  if (hash === undefined) {
    hash = hashOf(browserKey);
    BROWSER_HASHES.set(browserKey, hash);
  }
  return hash;
}

export function actorOf(ctx: Context): Actor {
  const s = sessionOf(ctx);
  return {
    loggedInAgentId: s.agentId ?? null,
    wizardAgentIds: s.wizardAgentIds ?? [],
    browserHash: s.browserKey ? browserHashOf(s.browserKey) : null,
    impersonating: s.impersonatedBy === 'admin',
  };
}

/** This browser's key, made on first use: drafts, campaigns and email links are tied to it. */
export function browserKeyOf(ctx: Context): string {
  const s = ctx.session as unknown as SessionData;
  s.browserKey ??= crypto.randomBytes(24).toString('base64url');
  return s.browserKey;
}

/** Give this browser the wizard's draft access to an agent it found in the MLS or made by hand (the last 20). */
export function grantWizardAccess(ctx: Context, agentId: number): void {
  const s = ctx.session as unknown as SessionData;
  browserKeyOf(ctx);
  s.wizardAgentIds = Array.from(new Set([...(s.wizardAgentIds ?? []).filter((id) => id !== agentId), agentId])).slice(-20);
}

/**
 * How a browser may use an agent (DESIGN §3):
 * - `signed_in`: the session is signed in as the agent (the dashboard and everything agent-scoped);
 * - `draft`: the wizard's access of a browser that found the member or made the manual agent (its own branding
 *   draft, listings, uploads and its own campaigns), which signing in includes.
 */
export type AccessLevel = 'signed_in' | 'draft';

/** The level this actor has on an agent, or null for none. */
export function accessLevelOf(actor: Actor, agentId: number): AccessLevel | null {
  if (actor.loggedInAgentId === agentId) return 'signed_in';
  return actor.wizardAgentIds.includes(agentId) ? 'draft' : null;
}

/** Does the actor reach `needed` on this agent? */
export function mayAccessAgent(actor: Actor, agentId: number, needed: AccessLevel): boolean {
  const level = accessLevelOf(actor, agentId);
  return level === 'signed_in' || (level === 'draft' && needed === 'draft');
}

/**
 * Is this request an admin viewing as an agent (Login As)? Such a session may read and edit the profile, but
 * must not change the password, the email, integrations or secrets: callers refuse those with
 * `impersonationRefused()`.
 */
export function isImpersonating(ctx: Context): boolean {
  return sessionOf(ctx).impersonatedBy === 'admin';
}

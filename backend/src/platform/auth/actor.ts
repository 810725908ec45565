import type { Context } from 'koa';

/** What the server keeps in a browser session (server-side store; the cookie carries only its id). */
export interface SessionData {
  /** The agent this session is logged in as (password, Google, or admin "login as"). */
  agentId?: number;
  /** Agents created by this browser session in the wizard (DESIGN §3, wizard ownership). */
  ownedAgentIds?: number[];
  /** Set by a successful admin login. */
  admin?: boolean;
  /** Set by admin "Login As" (DESIGN §6): such a session cannot change the password or the login email. */
  impersonated?: boolean;
  /** A random value naming this browser in the email verifications it asks for (agents module). */
  verifyNonce?: string;
}

export interface Actor {
  loggedInAgentId: number | null;
  ownedAgentIds: number[];
  isAdmin: boolean;
}

export function sessionOf(ctx: Context): SessionData {
  return (ctx.session ?? {}) as unknown as SessionData;
}

export function actorOf(ctx: Context): Actor {
  const s = sessionOf(ctx);
  return { loggedInAgentId: s.agentId ?? null, ownedAgentIds: s.ownedAgentIds ?? [], isAdmin: s.admin === true };
}

/** Bind an agent created in this browser session to it. */
export function claimAgent(ctx: Context, agentId: number): void {
  const s = ctx.session as unknown as SessionData;
  s.ownedAgentIds = Array.from(new Set([...(s.ownedAgentIds ?? []), agentId])).slice(-20);
}

/**
 * DESIGN §3: access to an agent's data is allowed to the session logged in as that agent,
 * or to the session that created the agent while it has no password yet.
 */
export function mayAccessAgent(actor: Actor, agent: { id: number; hasPassword: boolean }): boolean {
  if (actor.loggedInAgentId === agent.id) return true;
  return !agent.hasPassword && actor.ownedAgentIds.includes(agent.id);
}

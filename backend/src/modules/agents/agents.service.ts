import type { AgentCreatePayload } from '@app/contracts';
import { mayAccessAgent, type Actor } from '../../platform/auth/actor';
import { conflict, notFound, type AppError } from '../../platform/errors';
import type { ReadCaches } from '../../platform/cache/read-cache';
import { Agent } from './agent.model';
import { loginRequired, translateAgentRefusal } from './agents.errors';
import type { FoundMlsMember } from './mls-found';

export async function createAgent(input: AgentCreatePayload): Promise<Agent> {
  return Agent.query().insertAndFetch({
    name: input.name,
    state: input.state,
    email: input.email ?? null,
    phone: input.phone ?? null,
    brokerage: input.brokerage ?? null,
    mlsId: input.mlsId ?? null,
    source: input.manualEntry ? 'manual' : 'mls',
  });
}

export const LOGIN_REQUIRED_MESSAGE = 'An account already exists for this agent. Please log in.';

/**
 * An agent found in the MLS by this session (`found` comes from the session, not the client).
 * - Some agent with this mlsId has a password: it is an account; answer 409 and never hand it over
 *   (unless this session is logged in as that very agent: then it is simply theirs).
 * - This session already created an MLS agent for this mlsId: reuse it, so repeating search + create
 *   does not duplicate.
 * - Otherwise a new agent (source 'mls') with the MLS's name, state and email.
 */
export async function createMlsAgent(
  actor: Actor,
  found: FoundMlsMember,
  input: AgentCreatePayload,
): Promise<{ agent: Agent; created: boolean }> {
  // Only agents found in the MLS count: an MLS ID typed on a manual agent is display data, never a key
  // for ownership, so it can neither take this member's account nor lock the member out.
  const existing = await Agent.query().where({ mlsId: found.mlsId, source: 'mls' }).orderBy('id');
  const loggedIn = existing.find((a) => a.id === actor.loggedInAgentId);
  if (loggedIn) return { agent: loggedIn, created: false };
  if (existing.some((a) => a.hasPassword)) throw conflict('agents.login_required', LOGIN_REQUIRED_MESSAGE);
  const mine = existing.find((a) => actor.ownedAgentIds.includes(a.id));
  if (mine) return { agent: mine, created: false };
  const agent = await Agent.query().insertAndFetch({
    name: found.name,
    state: found.state,
    email: found.email ?? input.email ?? null,
    phone: input.phone ?? found.phone ?? null,
    brokerage: input.brokerage ?? found.brokerage ?? null,
    mlsId: found.mlsId,
    mlsEmail: found.email ? found.email.trim().toLowerCase() : null,
    source: 'mls',
  });
  return { agent, created: true };
}

/** The agents this browser session may open: the one it is logged in as, and those it created that have no password. */
export async function listAccessibleAgents(actor: Actor): Promise<Agent[]> {
  const ids = Array.from(new Set([...(actor.loggedInAgentId ? [actor.loggedInAgentId] : []), ...actor.ownedAgentIds]));
  if (!ids.length) return [];
  const rows = await Agent.query().whereIn('id', ids).orderBy('id');
  return rows.filter((a) => mayAccessAgent(actor, a));
}

/**
 * The ids of the agents the actor may access (DESIGN §3, the same rule as `mayAccessAgent`), as a subquery
 * another module puts in its own data query: one round trip instead of a check, then the read. When that
 * read finds nothing, ask `getAccessibleAgent` why (404 or 403).
 */
export function accessibleAgentIds(actor: Actor) {
  const owned = actor.ownedAgentIds.filter((id) => id !== actor.loggedInAgentId);
  return Agent.query()
    .select('id')
    .where((q) => {
      q.where('id', actor.loggedInAgentId ?? -1).orWhere((o) => o.whereIn('id', owned.length ? owned : [-1]).whereNull('passwordHash'));
    });
}

/**
 * The same rule for one agent the caller already names, as an uncorrelated subquery for `whereExists`:
 * PostgreSQL checks it once per query (an InitPlan) instead of once per row of the data it guards.
 */
export function accessibleAgent(actor: Actor, agentId: number) {
  return accessibleAgentIds(actor).where('id', agentId);
}

/**
 * Load an agent the actor may access. Someone else's agent is a 404 like a missing one, so ids cannot be
 * probed; only the session that created it, once it has a password, hears 403 "Please log in".
 */
export async function getAccessibleAgent(actor: Actor, agentId: number): Promise<Agent> {
  const agent = (await Agent.query().findById(agentId)) ?? null;
  refuseUnlessAccessible(actor, agent);
  return agent;
}

/** The refusals of the access rule: 404 for a missing agent or someone else's, 403 for its creator once it has a password. */
function refuseUnlessAccessible<A extends { id: number; hasPassword: boolean }>(actor: Actor, agent: A | null): asserts agent is A {
  if (!agent) throw notFound('agent');
  if (mayAccessAgent(actor, agent)) return;
  if (agent.hasPassword && actor.ownedAgentIds.includes(agent.id)) throw loginRequired();
  throw notFound('agent');
}

/** What the access rule needs to know about an agent; null when there is no such agent. */
type AccessFacts = { id: number; hasPassword: boolean } | null;

/**
 * `getAccessibleAgent`'s rule and answers from facts held a few seconds in the app's read cache (emptied
 * by this process's writes to agents): the hot dashboard and wizard reads check access without a round
 * trip. Setting a password in another process is seen within the cache's TTL, as sessions are.
 */
export async function assertAgentAccess({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number): Promise<void> {
  const facts = await caches.named<AccessFacts>('agent-access', ['agents']).get(String(agentId), async () => {
    const row = await Agent.query().findById(agentId).select('id', 'passwordHash');
    return row ? { id: row.id, hasPassword: row.hasPassword } : null;
  });
  refuseUnlessAccessible(actor, facts);
}

/** `assertAgentAccess` for the agent of something else (a campaign): refusals told as the caller's own. */
export async function assertAgentAccessFor(deps: { caches: ReadCaches }, actor: Actor, agentId: number, refusal: () => AppError): Promise<void> {
  try {
    await assertAgentAccess(deps, actor, agentId);
  } catch (err) {
    throw translateAgentRefusal(err, refusal);
  }
}

/**
 * The agent of something the caller asks for (a campaign, a payment): the same access rule, with
 * the refusal told as the caller's own (`refusal`), so it says nothing about the agent.
 */
export async function getAccessibleAgentFor(actor: Actor, agentId: number, refusal: () => AppError): Promise<Agent> {
  try {
    return await getAccessibleAgent(actor, agentId);
  } catch (err) {
    throw translateAgentRefusal(err, refusal);
  }
}

/** Our agents found in the MLS under these member ids (`source = mls`): whose listings an MLS feed's events are. */
export async function mlsAgentsByMlsIds(mlsIds: readonly string[]): Promise<{ id: number; mlsId: string }[]> {
  if (!mlsIds.length) return [];
  const rows = await Agent.query().where({ source: 'mls' }).whereIn('mlsId', mlsIds as string[]).select('id', 'mlsId');
  return rows.map((a) => ({ id: a.id, mlsId: a.mlsId! }));
}

export async function findAgent(agentId: number): Promise<Agent | undefined> {
  return Agent.query().findById(agentId);
}

/** Which of these object paths an agent shows (profile photo or logo): the uploads sweep keeps those. */
export async function agentObjectPathsInUse(paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const rows = await Agent.query().whereIn('profileImageUrl', paths).orWhereIn('logoUrl', paths).select('profileImageUrl', 'logoUrl');
  return new Set(rows.flatMap((r) => [r.profileImageUrl, r.logoUrl]).filter((p): p is string => !!p && paths.includes(p)));
}

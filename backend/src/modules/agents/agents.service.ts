import { accessLevelOf, mayAccessAgent, type AccessLevel, type Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/errors';
import type { ReadCaches } from '../../platform/cache/read-cache';
import { Agent } from './agent.model';
import { loginRequired } from './agents.errors';

/**
 * The access rule (DESIGN §3: two levels). Whether a browser may use an agent depends on its session alone:
 * - `signed_in`: signed in as the agent (password, Google, an opened email link, admin Login As): the dashboard
 *   and everything agent-scoped (leads, notification settings, metrics, all campaigns, deliveries, profile edits
 *   that reach public pages);
 * - `draft`: the wizard's access of a browser that found the member (or made the manual agent): the public
 *   profile merged with its own branding draft, listings, uploads, and its own campaigns.
 * Whether the agent has a password no longer matters: anyone may build a draft and pay for an ad that promotes
 * the real agent; only signing in reaches what is the agent's.
 *
 * Refusals: no access at all is a 404 like a missing agent (ids cannot be probed); a wizard browser asking for
 * what needs signing in hears 403 `agents.login_required` (it is offered the emailed sign-in link).
 */

/** The refusals of the access rule for an agent that exists or not (`exists`). */
function refuseUnlessAccessible(actor: Actor, agentId: number, exists: boolean, needed: AccessLevel): void {
  if (!exists) throw notFound('agent');
  if (mayAccessAgent(actor, agentId, needed)) return;
  if (accessLevelOf(actor, agentId) === 'draft') throw loginRequired();
  throw notFound('agent');
}

/** Load an agent the actor reaches at `needed` (404 unknown or no access, 403 `agents.login_required`). */
export async function getAccessibleAgent(actor: Actor, agentId: number, needed: AccessLevel): Promise<Agent> {
  const level = accessLevelOf(actor, agentId);
  // No access at all: no read (and the same answer as a missing agent).
  const agent = level ? await Agent.query().findById(agentId) : undefined;
  refuseUnlessAccessible(actor, agentId, !!agent, needed);
  return agent!;
}

/**
 * `getAccessibleAgent`'s rule without the row: whether the agent exists is held a few seconds in the app's read
 * cache, so the hot dashboard and wizard reads check access without a round trip.
 */
export async function assertAgentAccess({ caches }: { caches: ReadCaches }, actor: Actor, agentId: number, needed: AccessLevel): Promise<void> {
  const level = accessLevelOf(actor, agentId);
  const exists = level
    ? await caches.named<boolean>('agent-exists', ['agents']).get(String(agentId), async () => !!(await Agent.query().findById(agentId).select('id')))
    : false;
  refuseUnlessAccessible(actor, agentId, exists, needed);
}

/** The agent this browser is signed in as, listed for the dashboard's Select Agent (none when signed out). */
export async function listSignedInAgents(actor: Actor): Promise<Agent[]> {
  if (!actor.loggedInAgentId) return [];
  return Agent.query().where('id', actor.loggedInAgentId);
}

export async function findAgent(agentId: number): Promise<Agent | undefined> {
  return Agent.query().findById(agentId);
}

/** Which of these object paths an agent shows (profile photo or logo): the uploads sweep keeps those. */
export async function agentObjectPathsInUse(paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const rows = await Agent.query().whereIn('profileImageUrl', paths).orWhereIn('logoUrl', paths).select('profileImageUrl', 'logoUrl');
  const drafted = await Agent.knex()('agent_drafts')
    .select(Agent.knex().raw(`fields->>'profileImageUrl' as profile_image_url, fields->>'logoUrl' as logo_url`))
    .whereRaw(`fields->>'profileImageUrl' = any(?::text[]) or fields->>'logoUrl' = any(?::text[])`, [paths, paths]);
  return new Set(
    [...rows, ...(drafted as { profileImageUrl: string | null; logoUrl: string | null }[])]
      .flatMap((r) => [r.profileImageUrl, r.logoUrl])
      .filter((p): p is string => !!p && paths.includes(p)),
  );
}

import type { AgentCreatePayload } from '@app/contracts';
import { mayAccessAgent, type Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/errors';
import { Agent } from './agent.model';

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

/** The agents this browser session may open: the one it is logged in as, and those it created that have no password. */
export async function listAccessibleAgents(actor: Actor): Promise<Agent[]> {
  const ids = Array.from(new Set([...(actor.loggedInAgentId ? [actor.loggedInAgentId] : []), ...actor.ownedAgentIds]));
  if (!ids.length) return [];
  const rows = await Agent.query().whereIn('id', ids).orderBy('id');
  return rows.filter((a) => mayAccessAgent(actor, a));
}

/** Load an agent the actor may access: 404 when it does not exist, 403 when it is someone else's. */
export async function getAccessibleAgent(actor: Actor, agentId: number): Promise<Agent> {
  const agent = await Agent.query().findById(agentId);
  if (!agent) throw notFound('agent');
  if (!mayAccessAgent(actor, agent)) {
    throw agent.hasPassword && actor.ownedAgentIds.includes(agent.id)
      ? forbidden('agents.login_required', 'Please log in to continue')
      : forbidden('agents.forbidden', 'You do not have access to this agent');
  }
  return agent;
}

export async function findAgent(agentId: number): Promise<Agent | undefined> {
  return Agent.query().findById(agentId);
}

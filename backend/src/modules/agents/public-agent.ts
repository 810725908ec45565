import { phoneLink, type PublicAgent } from '@app/contracts';
import { Agent } from './agent.model';

/** The agent's contact card on a public listing page: nothing about accounts, notifications or secrets. */
export function presentPublicAgent(a: Agent): PublicAgent {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    phone: a.phone,
    phoneLink: phoneLink(a.phone),
    brokerage: a.brokerage,
    mlsId: a.mlsId,
    state: a.state,
    profileImageUrl: a.profileImageUrl,
    logoUrl: a.logoUrl,
  };
}

export async function findPublicAgent(agentId: number): Promise<PublicAgent | undefined> {
  const agent = await Agent.query().findById(agentId);
  return agent ? presentPublicAgent(agent) : undefined;
}

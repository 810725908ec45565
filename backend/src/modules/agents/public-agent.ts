import { phoneLink, type PublicAgent } from '@app/contracts';
import { Agent } from './agent.model';

/** What anyone may see of an agent's contact: the fields a listing page's agent card shows. */
export type PublicProfile = Pick<PublicAgent, 'name' | 'email' | 'phone' | 'brokerage' | 'profileImageUrl' | 'logoUrl'>;

/**
 * The agent's contact as the public sees it (DESIGN §3: public pages answer only to a verified owner). Until an
 * owner verified an MLS identity, it is what the MLS publishes for the member (no photo, no logo: the MLS
 * publishes none here); after, the agent's own branding and contact. A manual agent has no MLS: its own fields.
 */
export function publicProfileOf(a: Agent): PublicProfile {
  if (a.source === 'mls' && !a.verified) {
    return { name: a.mlsName ?? a.name, email: a.mlsEmail, phone: a.mlsPhone, brokerage: a.mlsBrokerage, profileImageUrl: null, logoUrl: null };
  }
  return { name: a.name, email: a.email, phone: a.phone, brokerage: a.brokerage, profileImageUrl: a.profileImageUrl, logoUrl: a.logoUrl };
}

/** The agent's contact card on a public listing page: nothing about accounts, notifications or secrets. */
export function presentPublicAgent(a: Agent): PublicAgent {
  const profile = publicProfileOf(a);
  return { id: a.id, ...profile, phoneLink: phoneLink(profile.phone), mlsId: a.mlsId, state: a.state };
}

export async function findPublicAgent(agentId: number): Promise<PublicAgent | undefined> {
  const agent = await Agent.query().findById(agentId);
  return agent ? presentPublicAgent(agent) : undefined;
}

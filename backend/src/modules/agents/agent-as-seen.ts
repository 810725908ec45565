import { accessLevelOf, type Actor } from '../../platform/auth/actor';
import type { Db } from '../../platform/db/knex';
import type { Agent } from './agent.model';
import { getAccessibleAgent } from './agents.service';
import { loadDraft, withDraft } from './drafts';
import { publicProfileOf, type PublicProfile } from './public-agent';

/** An agent as one browser sees it: what a campaign it creates snapshots for its ad (the advertiser's name and brokerage). */
export interface AgentAsSeen extends PublicProfile {
  id: number;
  state: string;
}

/**
 * The agent as this browser sees it (draft access at least; refused like `getAccessibleAgent`): signed in, the
 * agent's own row; a wizard browser, the public profile with its own branding draft (DESIGN §3: a campaign made
 * by that browser shows its draft in the ad, and nothing of it reaches the agent).
 */
export async function agentAsSeenBy(db: Db, actor: Actor, agentId: number): Promise<AgentAsSeen> {
  const agent: Agent = await getAccessibleAgent(actor, agentId, 'draft');
  const profile =
    accessLevelOf(actor, agentId) === 'signed_in'
      ? { name: agent.name, email: agent.email, phone: agent.phone, brokerage: agent.brokerage, profileImageUrl: agent.profileImageUrl, logoUrl: agent.logoUrl }
      : withDraft(publicProfileOf(agent), await loadDraft(db, agent.id, actor.browserHash));
  return { id: agent.id, state: agent.state, ...profile, name: profile.name ?? agent.name };
}

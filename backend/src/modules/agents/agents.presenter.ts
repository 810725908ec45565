import type { AgentView } from '@app/contracts';
import type { Agent } from './agent.model';

/** The agent on the wire: no password hash, no secrets; `hasPassword` tells whether an account exists. */
export function presentAgent(a: Agent): AgentView {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    phone: a.phone,
    state: a.state,
    brokerage: a.brokerage,
    mlsId: a.mlsId,
    profileImageUrl: a.profileImageUrl,
    logoUrl: a.logoUrl,
    hasPassword: a.hasPassword,
    createdAt: new Date(a.createdAt).toISOString(),
  };
}

export type { AgentView };

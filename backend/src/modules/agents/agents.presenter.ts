import type { Agent } from './agent.model';

/** The agent on the wire: no password hash, no secrets; `hasPassword` tells whether an account exists. */
export function presentAgent(a: Agent) {
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
    createdAt: a.createdAt,
  };
}

export type AgentView = ReturnType<typeof presentAgent>;

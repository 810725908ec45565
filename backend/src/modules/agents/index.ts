// The agents module's only door. Other modules use these, never the files behind them.
export { agentsRouter } from './agents.routes';
export { getAccessibleAgent, getAccessibleAgentFor, accessibleAgentIds, findAgent } from './agents.service';
export { rememberFoundMlsMember, type FoundMlsMember } from './mls-found';
export type { Agent } from './agent.model';
export { presentAgent, type AgentView } from './agents.presenter';
export { findPublicAgent } from './public-agent';

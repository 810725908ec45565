// The agents module's only door. Other modules use these, never the files behind them.
export { agentsRouter } from './agents.routes';
export { getAccessibleAgent, getAccessibleAgentFor, assertAgentAccess, assertAgentAccessFor, accessibleAgentIds, accessibleAgent, findAgent, agentObjectPathsInUse, mlsAgentsByMlsIds } from './agents.service';
// A one-time link emailed to the agent logs the browser that opens it in (autopilot's Edit and payment links).
export { logInFromEmailLink } from './auth.routes';
export { rememberFoundMlsMember, type FoundMlsMember } from './mls-found';
export type { Agent } from './agent.model';
export { presentAgent, type AgentView } from './agents.presenter';
export { findPublicAgent } from './public-agent';
export { sendVerificationEmailJob } from './jobs/send-verification-email.job';
// Read model of the admin agents list (one SQL over agents, campaigns, payments: see its header).
export { listAgentsForAdmin, type AdminAgentList, type AdminAgentListRow } from './admin-agent-list';

// The agents module's only door. Other modules use these, never the files behind them.
export { agentsRouter } from './agents.routes';
export { getAccessibleAgent, getAccessibleAgentFor, assertAgentAccess, assertAgentAccessFor, accessibleAgentIds, accessibleAgent, findAgent, agentObjectPathsInUse } from './agents.service';
export { rememberFoundMlsMember, type FoundMlsMember } from './mls-found';
export type { Agent } from './agent.model';
export { presentAgent, type AgentView } from './agents.presenter';
export { findPublicAgent } from './public-agent';
export { sendVerificationEmailJob } from './jobs/send-verification-email.job';
// Read model of the admin agents list (one SQL over agents, campaigns, payments: see its header).
export { listAgentsForAdmin, type AdminAgentList, type AdminAgentListRow } from './admin-agent-list';
// The public API's keys: the route guard other modules put on /api/v1 routes, and the key behind a request.
export { requireApiKey, apiKeyPrincipal, liveApiKeyIds, type ApiKeyPrincipal } from './api-keys';

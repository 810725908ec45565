// The agents module's only door. Other modules use these, never the files behind them.
import type { RouteSpec } from '../../platform/http/route';
import { agentsRoutes } from './agents.routes';
import { authRoutes } from './auth.routes';
import { googleLoginRoutes } from './google-login.routes';
import { apiKeysRoutes } from './api-keys.routes';
export { agentsRouter } from './agents.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const agentsRouteSpecs: RouteSpec[] = [agentsRoutes, authRoutes, googleLoginRoutes, apiKeysRoutes].flatMap((r) => Object.values<RouteSpec>(r));
export { getAccessibleAgent, assertAgentAccess, findAgent, agentObjectPathsInUse, mlsAgentsByMlsIds } from './agents.service';
// A one-time link emailed to the agent's verified address logs the browser that opens it in (autopilot's Edit and payment links).
export { logInFromEmailLink } from './auth.routes';
export { rememberFoundMlsMember, type FoundMlsMember, type MlsMember } from './mls-found';
export type { Agent } from './agent.model';
export { presentAgent, type AgentView } from './agents.presenter';
export { findPublicAgent } from './public-agent';
// The agent as one browser sees it (its branding draft over the public profile): what its campaign's ad shows.
export { agentAsSeenBy, type AgentAsSeen } from './agent-as-seen';
// Every email to the agent carries a one-time sign-in link; where an email to the agent may go (DESIGN §3).
export { issueSignInLink, issueSignInLinks } from './email-verifications';
export { emailRecipientOf, emailRecipientsOf, type EmailRecipient } from './email-recipient';
// What other modules do when an identity is verified or merged (wired by modules/index.ts).
export type { IdentityHooks, AgentRowMover } from './identity-hooks';
export { sendVerificationEmailJob } from './jobs/send-verification-email.job';
export { sendSignInLinksJob } from './jobs/send-sign-in-links.job';
// Read model of the admin agents list (one SQL over agents, campaigns, payments: see its header).
export { listAgentsForAdmin, type AdminAgentList, type AdminAgentListRow } from './admin-agent-list';
// The public API's keys: the route guard other modules put on /api/v1 routes, and the key behind a request.
export { requireApiKey, apiKeyPrincipal, liveApiKeyIds, type ApiKeyPrincipal } from './api-keys';

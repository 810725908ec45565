import Router from '@koa/router';
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z, type ZodType } from 'zod';
import {
  adCopyCheckResponseSchema,
  adCopyCheckSchema,
  adCopyRequestSchema,
  adCopyResponseSchema,
  adminAgentIdParams,
  adminAgentsPageSchema,
  adminAgentsQuerySchema,
  adminCampaignIdParams,
  adminCampaignMetricsSchema,
  adminFailedWorkSchema,
  adminLoginSchema,
  adminMetricsQuerySchema,
  adminRetryJobSchema,
  agentLeadsPageSchema,
  dailyDeliveryListSchema,
  agentLeadsQuerySchema,
  agentListingsPageSchema,
  agentListingsQuerySchema,
  changePasswordSchema,
  crmIntegrationSchema,
  lionDeskConnectionViewSchema,
  deliveriesQuerySchema,
  deliveryPageSchema,
  deliveryParamsSchema,
  deliveryReplaySchema,
  forgotPasswordSchema,
  forgotPasswordSentSchema,
  signInLinkSchema,
  accountSetupPayloadSchema,
  notificationSettingsSavedSchema,
  notificationSettingsSchema,
  notificationSettingsViewSchema,
  helpFirstRequestSchema,
  helpFollowUpRequestSchema,
  helpResponseSchema,
  resetPasswordSchema,
  testWebhookResultSchema,
  testWebhookSchema,
  verificationSentSchema,
  verifiedSchema,
  verifyEmailSchema,
  agentCreateSchema,
  agentUpdateSchema,
  agentViewSchema,
  authAgentSchema,
  campaignDraftSchema,
  campaignViewSchema,
  createPaymentIntentResponseSchema,
  createPaymentIntentSchema,
  errorBodySchema,
  healthSchema,
  idParam,
  leadChallengeAnswerSchema,
  leadChallengeRequestSchema,
  leadCreatedSchema,
  leadReviewedSchema,
  leadSubmissionSchema,
  listingResponseSchema,
  mlsIdParam,
  publicCampaignSchema,
  leadCreatedWebhookSchema,
  listingCreateSchema,
  listingViewSchema,
  localPaymentAnswerSchema,
  savedCardViewSchema,
  cardSetupSchema,
  autopilotViewSchema,
  campaignWizardSchema,
  autopilotSettingsInputSchema,
  autopilotRunParams,
  autopilotRunSchema,
  autopilotLinkParams,
  autopilotLinkViewSchema,
  autopilotLinkResultSchema,
  cardSetupConfirmSchema,
  loginSchema,
  mlsAgentMatchSchema,
  mlsLoadResultSchema,
  mlsLoadSchema,
  mlsSearchSchema,
  okResponseSchema,
  paymentSuccessResponseSchema,
  paymentSuccessSchema,
  readinessSchema,
  runtimeConfigSchema,
  storedUploadSchema,
  stripeWebhookAnswerSchema,
  targetingPreviewResponseSchema,
  targetingPreviewSchema,
  uploadSlotSchema,
  webhookHeadersSchema,
  agentCampaignsSchema,
  facebookMetricsSchema,
  agentHookParamsSchema,
  apiKeyCreateSchema,
  apiKeyCreatedSchema,
  apiKeyParamsSchema,
  apiKeyViewSchema,
  apiLeadsPageSchema,
  apiLeadsQuerySchema,
  apiMeSchema,
  hookCreateSchema,
  hookCreatedSchema,
  hookParamsSchema,
  hookViewSchema,
  smsNumberSchema,
  smsVerifySchema,
  smsViewSchema,
  agentCreditsSchema,
  agentReportSchema,
  agentReportsSchema,
  creditPreferenceSchema,
} from '@app/contracts';
import { localAuthenticateSchema, localConfirmSchema } from './modules/payments';
import { renderApiReference } from './platform/http/api-reference';
import { isRawBody, type Auth, type RawBody, type RouteSpec } from './platform/http/route';
import { routeSpecs } from './modules';
import { ADMIN_COOKIE } from './platform/http/admin-session';
import { SESSION_COOKIE } from './platform/http/session-store';

/**
 * The API described once, from the contracts' zod schemas: every route the app mounts is listed
 * here (api-docs.test.ts fails for a mounted route that is not), with its input, its answers and
 * its errors, and the OpenAPI 3.1 document is generated from this list (GET /api/openapi.json,
 * readable at /api/docs). Adding a route = adding its line below (with `auth` when its path does not say who may
 * call it, see authOf). The document must pass Redocly's recommended ruleset: `npm run lint:openapi`, run by npm test.
 */

// Named components: responses refer to them by $ref.
const Error = errorBodySchema.meta({ id: 'Error', description: 'Every error answer (DESIGN §4): `fields` maps a dotted field path to its first message.' });
const Agent = agentViewSchema.meta({ id: 'Agent' });
const Listing = listingViewSchema.meta({ id: 'Listing' });
const Campaign = campaignViewSchema.meta({ id: 'Campaign' });
const LeadCreated = leadCreatedWebhookSchema.meta({ id: 'LeadCreatedEvent' });
const VerificationSent = verificationSentSchema.meta({ id: 'VerificationSent', description: 'A link was emailed; nothing changes until it is opened' });
const Verified = verifiedSchema.meta({ id: 'Verified' });

/** A route of the list below, not yet declared by its router (moved module by module into their `*.routes.ts`). */
type LegacyDoc = Omit<RouteSpec, 'auth'> & { auth?: Auth | 'none'; apiKey?: boolean };

/** A legacy line's `auth`, or what its path says: /api/admin/* is the admin's, /api/agents/{id}/* and /api/campaigns/* the agent session's. */
function authOf(doc: LegacyDoc): Auth {
  if (doc.apiKey) return 'apiKey';
  if (doc.auth) return doc.auth === 'none' ? 'public' : doc.auth;
  if (doc.path.startsWith('/api/admin/')) return 'admin';
  if (doc.path.startsWith('/api/agents/:id') || doc.path.startsWith('/api/campaigns')) return 'agent';
  return 'public';
}

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  public: [],
  agent: [{ AgentSession: [] }],
  'agent-optional': [{}, { AgentSession: [] }],
  admin: [{ AdminSession: [] }],
  'admin-optional': [{}, { AdminSession: [] }],
  apiKey: [{ ApiKeyBearer: [] }, { ApiKeyHeader: [] }],
};

const id = z.object({ id: idParam });
const mlsId = z.object({ mlsId: mlsIdParam });
const leadParams = z.object({ id: idParam, leadId: idParam });
const reportParams = z.object({ id: idParam, campaignId: idParam });
const pdf: RawBody = { contentType: 'application/pdf', schema: z.string().meta({ format: 'binary' }), description: 'The PDF' };
const html = (description: string): RawBody => ({ contentType: 'text/html', description });
const notModified: RawBody = { contentType: 'application/json', description: 'Not modified (ETag / If-None-Match)' };
const image: RawBody = { contentType: 'image/*', schema: z.string().meta({ format: 'binary' }), description: 'The image bytes' };
const json = (schema: ZodType) => schema;
const noContent: RawBody = { contentType: 'application/json', description: 'Done (no body)' };
const ApiKey = apiKeyViewSchema.meta({ id: 'ApiKey' });
const ApiLead = apiLeadsPageSchema.meta({ id: 'ApiLeadsPage' });

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: `fields` names each field and its message',
  401: 'Not logged in, or wrong credentials (the public API: no API key, or an unknown or revoked one)',
  402: 'Payment has not been completed',
  403: "Not allowed for this session, or a cross-site request (`request.cross_site`: state changes must come from this origin) (see `code`; `agents.login_required`: a wizard browser asked for what only the signed-in agent reaches, sign in to continue). Another session's agents and campaigns answer 404, like unknown ones",
  404: 'Not found',
  409: 'Conflict with the current state (see `code`)',
  410: 'Gone: the link expired or was used',
  413: 'Too large',
  415: 'Not a supported image',
  429: 'Rate limited: retry after the Retry-After header',
  502: 'An outside provider failed; try again',
  503: 'Not available (not configured, or not ready)',
};

const LEGACY: LegacyDoc[] = [
  // Platform
  { method: 'get', path: '/api/health', tag: 'platform', summary: 'The process answers', ok: { 200: healthSchema } },
  { method: 'get', path: '/api/ready', tag: 'platform', summary: 'The database and the job queue answer', ok: { 200: readinessSchema, 503: readinessSchema } },
  { method: 'get', path: '/api/runtime-config', tag: 'platform', summary: 'Where the remotes live and which providers run', ok: { 200: runtimeConfigSchema } },
  { method: 'get', path: '/api/openapi.json', tag: 'platform', summary: 'This document (OpenAPI 3.1)', ok: { 200: z.record(z.string(), z.unknown()) } },
  { method: 'get', path: '/api/docs', tag: 'platform', summary: 'This document as a readable page', ok: { 200: { contentType: 'text/html', description: 'The API reference page' } } },

  // Agents and accounts
  {
    method: 'post', path: '/api/agents', auth: 'agent-optional', tag: 'agents', summary: "The wizard's agent: the identity of an MLS member this session found (201 the first time, 200 after), or a manual entry",
    description: 'One agent per MLS member, whichever browser finds it. This browser gets the wizard\'s draft access to it (its own branding draft and campaigns), never the account.',
    body: agentCreateSchema, ok: { 201: Agent, 200: Agent }, errors: [403],
  },
  { method: 'get', path: '/api/agents', auth: 'agent-optional', tag: 'agents', summary: 'The agent this session is signed in as (the dashboard\'s Select Agent)', ok: { 200: z.array(Agent) } },
  {
    method: 'get', path: '/api/agents/:id', tag: 'agents', summary: 'One agent, as this browser may see it',
    description: "Signed in: the agent's own profile (`access: signed_in`). A wizard browser: the public profile merged with its own branding draft (`access: draft`). Another session's agent answers 404, like an unknown one.",
    params: id, ok: { 200: Agent }, errors: [403, 404],
  },
  {
    method: 'put', path: '/api/agents/:id', tag: 'agents', summary: 'Branding and profile edit (signed in: the agent; a wizard browser: its own draft); with a password, the account setup',
    description:
      'Signed in as the agent, the fields are written to it; a new email waits for its link (`pendingEmail`), and an admin\'s Login As may not change it (403). ' +
      'From a wizard browser the fields are that browser\'s draft, answered merged at once and applied only when a signed-in session saves them or this browser opens the verification link. ' +
      'With a password the answer is 202, as for POST /api/agents/{id}/account-setup.',
    params: id, body: agentUpdateSchema, ok: { 200: Agent, 202: VerificationSent }, errors: [403, 404, 409, 429],
  },
  {
    method: 'post', path: '/api/agents/:id/account-setup', tag: 'agents', summary: 'Account setup: email a one-time link that verifies the identity and signs in the browser that opens it (password optional)',
    description: "An MLS member's link goes to the email the MLS publishes (the typed email must be it); a manual agent's to the typed one. An identity with an owner gets a sign-in link to its own address (masked in the answer).",
    params: id, body: accountSetupPayloadSchema, ok: { 202: VerificationSent }, errors: [403, 404, 409, 429],
  },
  {
    method: 'post', path: '/api/agents/:id/sign-in-link', tag: 'agents', summary: "A wizard browser offered sign-in: a one-time link to the identity's own address (masked in the answer)",
    params: id, ok: { 202: VerificationSent }, errors: [404, 409, 429],
  },
  { method: 'post', path: '/api/auth/sign-in-link', tag: 'agents', summary: 'Email me a sign-in link (the same answer, in the same time, whatever the address)', body: signInLinkSchema, ok: { 202: forgotPasswordSentSchema }, errors: [429] },
  { method: 'post', path: '/api/auth/login', tag: 'agents', summary: 'Log in with email and password', body: loginSchema, ok: { 200: authAgentSchema }, errors: [401, 429] },
  { method: 'post', path: '/api/auth/logout', auth: 'agent-optional', tag: 'agents', summary: 'End the session', ok: { 200: okResponseSchema } },
  { method: 'get', path: '/api/auth/me', auth: 'agent', tag: 'agents', summary: 'The logged-in agent', ok: { 200: authAgentSchema }, errors: [401] },
  {
    method: 'get', path: '/api/auth/google', tag: 'agents', summary: 'Continue with Google: to Google\'s consent screen (browser navigation)',
    description: 'A random `state` is kept in this session and checked by the callback. Without GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET: 503 `agents.google_login_disabled`.',
    ok: { 302: html("To Google's consent screen") }, errors: [429, 503],
  },
  {
    method: 'get', path: '/api/auth/google/callback', auth: 'agent-optional', tag: 'agents', summary: 'Back from Google: logs in the agent linked to this Google account, or the account with its verified email',
    description: 'To /dashboard when logged in (new session id, googleId linked); otherwise to /login?google=no-account | unverified-email | failed (a wrong or missing `state` is `failed`).',
    ok: { 302: html('To /dashboard, or back to /login?google=…') }, errors: [429, 503],
  },
  { method: 'post', path: '/api/auth/verify-email', tag: 'agents', summary: 'Open an emailed link (account setup, sign-in, email change): verifies the address and signs this browser in', body: verifyEmailSchema, ok: { 200: Verified }, errors: [429] },
  { method: 'post', path: '/api/auth/forgot-password', tag: 'agents', summary: 'Email a password reset link (the same answer whether or not the email has an account)', body: forgotPasswordSchema, ok: { 202: forgotPasswordSentSchema }, errors: [429] },
  { method: 'post', path: '/api/auth/reset-password', tag: 'agents', summary: 'Choose a new password with an emailed reset link: logs this browser in', body: resetPasswordSchema, ok: { 200: Verified }, errors: [429] },
  { method: 'post', path: '/api/auth/change-password', auth: 'agent', tag: 'agents', summary: 'Change the password (logged in; every other session ends)', body: changePasswordSchema, ok: { 200: okResponseSchema }, errors: [401, 403, 429] },

  // Admin (the la.admin session of POST /api/admin/login)
  { method: 'post', path: '/api/admin/login', auth: 'none', tag: 'admin', summary: 'Admin login (ADMIN_PASSWORD)', body: adminLoginSchema, ok: { 200: okResponseSchema }, errors: [401, 429, 503] },
  { method: 'post', path: '/api/admin/logout', auth: 'admin-optional', tag: 'admin', summary: 'End the admin session', ok: { 200: okResponseSchema } },
  { method: 'get', path: '/api/admin/agents', tag: 'admin', summary: 'Agents with their campaigns, filtered, sorted and paged, with totals', query: adminAgentsQuerySchema, ok: { 200: adminAgentsPageSchema }, errors: [401] },
  { method: 'get', path: '/api/admin/facebook-metrics', tag: 'admin', summary: 'Impressions and clicks per campaign (the given ids, or the newest 500 launched)', query: adminMetricsQuerySchema, ok: { 200: z.array(adminCampaignMetricsSchema) }, errors: [401] },
  {
    method: 'get', path: '/api/admin/login-as/:agentId', tag: 'admin', summary: "Login As: this browser's agent session becomes the agent's (audited)", params: adminAgentIdParams,
    ok: { 302: { contentType: 'text/html', description: 'To /dashboard, as the agent' } }, errors: [401, 404],
  },
  { method: 'post', path: '/api/admin/end-impersonation', auth: 'agent-optional', tag: 'admin', summary: "End an admin's Login As (the dashboard banner; works after the admin session expired)", ok: { 200: okResponseSchema } },
  { method: 'get', path: '/api/admin/failed-work', tag: 'admin', summary: 'Failed launches and failed or dead-lettered jobs', ok: { 200: adminFailedWorkSchema }, errors: [401] },
  { method: 'post', path: '/api/admin/failed-work/launches/:id/retry', tag: 'admin', summary: 'Relaunch a campaign whose launch failed (audited)', params: adminCampaignIdParams, ok: { 200: okResponseSchema.extend({ campaignId: z.number() }) }, errors: [401, 404, 409] },
  { method: 'post', path: '/api/admin/failed-work/jobs/retry', tag: 'admin', summary: 'Put a failed job back in its queue (audited)', body: adminRetryJobSchema, ok: { 200: okResponseSchema }, errors: [401, 404] },

  // MLS
  { method: 'post', path: '/api/mls/search-agent', auth: 'agent-optional', tag: 'mls', summary: 'Find an MLS member by name and state', body: mlsSearchSchema, ok: { 200: mlsAgentMatchSchema }, errors: [404, 429, 502] },
  { method: 'post', path: '/api/mls/load', auth: 'agent', tag: 'mls', summary: "Load the member's listings from the MLS", body: mlsLoadSchema, ok: { 200: mlsLoadResultSchema }, errors: [403, 404, 502] },
  { method: 'get', path: '/demo-mls/photos/:file', tag: 'mls', summary: "A demo MLS listing photo", params: z.object({ file: z.string() }), ok: { 200: image }, errors: [404] },
  {
    method: 'get', path: '/demo-mls/odata/:resource', tag: 'mls', summary: "The demo MLS's RESO Web API (mounted while the demo MLS runs)",
    description: "`Property`, `Member` or `Property('KEY')` with OData's `$filter`, `$orderby`, `$top`, `$skip` (at most 10,000), `$count`, `$select`, `$expand=Media`; pages of 500 with `@odata.nextLink`. Errors are OData error bodies (`{ error: { code, message } }`).",
    params: z.object({ resource: z.string() }),
    ok: { 200: json(z.looseObject({ value: z.array(z.record(z.string(), z.unknown())).optional(), '@odata.nextLink': z.string().optional(), '@odata.count': z.number().optional() })) },
  },

  // Listings
  {
    method: 'get', path: '/api/agents/:id/listings', tag: 'listings', summary: "The agent's listings, a page at a time (active first, newest first)", params: id,
    query: agentListingsQuerySchema, ok: { 200: agentListingsPageSchema }, errors: [403, 404],
  },
  { method: 'post', path: '/api/listings', auth: 'agent', tag: 'listings', summary: 'Enter a listing manually', body: listingCreateSchema, ok: { 201: Listing }, errors: [403, 404, 409] },

  // Public listing pages and the buyer's lead (spec 001)
  { method: 'get', path: '/api/listings/:mlsId', tag: 'listings', summary: 'A public listing with its agent (the one /listing/{mlsId} shows)', params: mlsId, ok: { 200: listingResponseSchema, 304: notModified }, errors: [404] },
  { method: 'get', path: '/api/listings/:mlsId/campaign', tag: 'campaigns', summary: "The public part of the listing's paid campaign, or null", params: mlsId, ok: { 200: publicCampaignSchema, 304: notModified }, errors: [404] },
  { method: 'get', path: '/api/agents/:id/campaigns', tag: 'campaigns', summary: "The agent's paid campaigns, newest first, with delivery and the promoted listing", params: id, ok: { 200: agentCampaignsSchema }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/facebook-metrics', tag: 'campaigns', summary: "The agent's Facebook metrics over its paid campaigns", params: id, ok: { 200: facebookMetricsSchema }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/facebook-metrics/daily', tag: 'campaigns', summary: 'Impressions and clicks delivered per day and campaign, the last 90 days (the dashboard chart)', params: id, ok: { 200: dailyDeliveryListSchema }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/credits', tag: 'payments', summary: "The agent's credits for under-delivery: refunds and account-credit ledger entries, newest first, with the balance", params: id, ok: { 200: agentCreditsSchema }, errors: [403, 404] },
  { method: 'put', path: '/api/agents/:id/credits/preference', tag: 'payments', summary: 'Refund to the card (default) or account credit, for shortfalls settled from now on', params: id, body: creditPreferenceSchema, ok: { 200: agentCreditsSchema }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/reports', tag: 'reports', summary: "The agent's campaign reports: running (figures so far) and final (settled), with the seller link and the PDF", params: id, ok: { 200: agentReportsSchema }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/reports/:campaignId/pdf', tag: 'reports', summary: 'The report as a PDF (30 renders per 10 minutes)', params: reportParams, ok: { 200: pdf }, errors: [403, 404, 429] },
  { method: 'post', path: '/api/agents/:id/reports/:campaignId/seller-link', tag: 'reports', summary: 'A new seller link for a final report (after a revocation; an existing live link stays)', params: reportParams, body: z.object({}), ok: { 200: agentReportSchema }, errors: [403, 404, 409] },
  { method: 'delete', path: '/api/agents/:id/reports/:campaignId/seller-link', tag: 'reports', summary: 'Revoke the seller link: it answers 404 from now on', params: reportParams, ok: { 200: agentReportSchema }, errors: [403, 404] },

  // Lead notifications (spec 001 §2, §7)
  { method: 'get', path: '/api/crm-integrations', tag: 'notifications', summary: 'The CRMs leads can be delivered to', ok: { 200: z.array(crmIntegrationSchema) } },
  { method: 'get', path: '/api/agents/:id/notification-settings', tag: 'notifications', summary: "The agent's notification settings (no secrets; credential URLs masked)", params: id, ok: { 200: notificationSettingsViewSchema }, errors: [403, 404] },
  {
    method: 'put', path: '/api/agents/:id/notification-settings', tag: 'notifications', summary: 'Save the notification settings (a generated webhook secret is shown this once)', params: id,
    body: notificationSettingsSchema, ok: { 200: notificationSettingsSavedSchema }, errors: [403, 404, 409],
  },
  { method: 'post', path: '/api/agents/:id/test-webhook', tag: 'notifications', summary: 'Send a signed test lead to the custom webhook, Zapier or the CRM', params: id, body: testWebhookSchema, ok: { 200: testWebhookResultSchema }, errors: [403, 404, 429, 502] },
  { method: 'get', path: '/api/agents/:id/crm/liondesk', tag: 'notifications', summary: "The agent's LionDesk connection: connected, needs reconnecting (never a token)", params: id, ok: { 200: lionDeskConnectionViewSchema }, errors: [403, 404] },
  {
    method: 'get', path: '/api/agents/:id/crm/liondesk/connect', tag: 'notifications', summary: "Connect LionDesk: to LionDesk's authorization page (browser navigation)", params: id,
    description:
      'OAuth 2.0 authorization-code grant (developers.liondesk.com/docs/authentication/authorization-grant): response_type=code, client_id, redirect_uri `<PUBLIC_URL>/api/crm/liondesk/callback`, scope write, and a signed `state` that expires in 10 minutes, names the agent and is bound to this browser session. Without LIONDESK_CLIENT_ID/LIONDESK_CLIENT_SECRET: 404 `notifications.liondesk_not_configured`; an admin\'s Login As: 403.',
    ok: { 302: html("To LionDesk's authorization page") }, errors: [403, 404, 429],
  },
  {
    method: 'get', path: '/api/crm/liondesk/callback', tag: 'notifications', summary: 'Back from LionDesk: exchanges the code for tokens (stored sealed) and makes LionDesk the CRM',
    description: 'To /dashboard?liondesk=connected; otherwise /dashboard?liondesk=denied (LionDesk sent `error`) | expired (a forged, spent, expired or other-browser `state`) | failed (the token endpoint refused). Never a 500.',
    ok: { 302: html('To /dashboard?liondesk=…') }, errors: [429],
  },
  { method: 'delete', path: '/api/agents/:id/crm/liondesk', tag: 'notifications', summary: 'Disconnect LionDesk: its stored tokens are deleted', params: id, ok: { 204: noContent }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/deliveries', tag: 'notifications', summary: 'Delivery attempts, newest first (filter by channel and status)', params: id, query: deliveriesQuerySchema, ok: { 200: deliveryPageSchema }, errors: [403, 404] },
  {
    method: 'post', path: '/api/agents/:id/deliveries/:deliveryId/replay', tag: 'notifications',
    summary: 'Send a dead delivery again (a new attempt is queued; 409 while retries are pending or for one delivered; 10 a minute per agent)', params: deliveryParamsSchema,
    ok: { 202: deliveryReplaySchema }, errors: [403, 404, 409, 429],
  },
  {
    method: 'get', path: '/dev/outbox', tag: 'pages', summary: 'Development only (embedded email outbox): the emails that would have been sent, newest first',
    ok: { 200: html('The outbox page') },
  },
  {
    method: 'get', path: '/dev/outbox/:file', tag: 'pages', summary: 'Development only: one outbox email as its .eml source',
    ok: { 200: { contentType: 'text/plain', description: 'The raw message (RFC 5322)' }, 404: { contentType: 'text/plain', description: 'No such email' } },
  },
  { method: 'get', path: '/listing/:mlsId', tag: 'pages', summary: 'The public listing page, server-rendered (Open Graph, JSON-LD)', ok: { 200: html('The listing page'), 302: html('A manual listing: to /manual-listing/{mlsId}'), 304: html('Not modified'), 404: html('Property Not Found') } },
  { method: 'get', path: '/manual-listing/:mlsId', tag: 'pages', summary: 'The public page of a manually entered listing, server-rendered', ok: { 200: html('The listing page'), 304: html('Not modified'), 404: html('Property Not Found') } },
  { method: 'get', path: '/report/:token', tag: 'pages', summary: "The seller's report page: public, server-rendered, noindex, Open Graph; counts only", ok: { 200: html('The report page'), 404: html('Report not available (unknown or revoked link)') } },
  { method: 'get', path: '/report/:token/report.pdf', tag: 'pages', summary: "The seller's report as a PDF (30 renders per 10 minutes per client)", ok: { 200: pdf, 404: { contentType: 'application/json', description: 'Unknown or revoked link' } }, errors: [429] },
  { method: 'get', path: '/og/listing/:file', tag: 'pages', summary: "The listing's 1200×630 share image ({mlsId}.jpg)", ok: { 200: image, 304: { contentType: 'image/*', description: 'Not modified' }, 404: { contentType: 'text/plain', description: 'No such listing' } } },

  // API keys and the public API (v1): Authorization: Bearer <key> or X-API-Key: <key>
  { method: 'get', path: '/api/agents/:id/api-keys', tag: 'api-keys', summary: "The agent's API keys (never the keys themselves)", params: id, ok: { 200: z.array(ApiKey) }, errors: [403, 404] },
  {
    method: 'post', path: '/api/agents/:id/api-keys', tag: 'api-keys', summary: 'Create an API key (the key is in this answer only)', params: id, body: apiKeyCreateSchema,
    description: "Scopes: `leads:read` (GET /api/v1/leads) and `hooks:write` (REST hooks). At most 10 keys per agent. An admin's Login As may not create keys.",
    ok: { 201: apiKeyCreatedSchema }, errors: [403, 404, 409],
  },
  { method: 'delete', path: '/api/agents/:id/api-keys/:keyId', tag: 'api-keys', summary: 'Revoke an API key: the next request with it is refused', params: apiKeyParamsSchema, ok: { 200: ApiKey }, errors: [403, 404] },
  { method: 'get', path: '/api/agents/:id/hooks', tag: 'api-keys', summary: 'The REST hooks integrations subscribed for the agent (URLs masked)', params: id, ok: { 200: z.array(hookViewSchema) }, errors: [403, 404] },
  { method: 'delete', path: '/api/agents/:id/hooks/:hookId', tag: 'api-keys', summary: 'Remove a subscribed REST hook', params: agentHookParamsSchema, ok: { 204: noContent }, errors: [403, 404] },
  { method: 'get', path: '/api/v1/me', tag: 'public-api', summary: "The key's agent (an integration's connection test)", apiKey: true, ok: { 200: apiMeSchema }, errors: [401, 429] },
  {
    method: 'get', path: '/api/v1/leads', tag: 'public-api', summary: "The key's agent's leads, newest first (scope leads:read)", apiKey: true, query: apiLeadsQuerySchema,
    description: 'Each lead is the `data` of the lead.created event a subscribed hook receives. Pass `nextCursor` back as `cursor` for the next page.',
    ok: { 200: ApiLead }, errors: [401, 403, 429],
  },
  {
    method: 'post', path: '/api/v1/hooks', tag: 'public-api', summary: 'Subscribe a REST hook to lead.created (scope hooks:write)', apiKey: true, body: hookCreateSchema,
    description:
      'Each new lead is POSTed to `targetUrl` as the lead.created webhook, signed per Standard Webhooks with the `secret` of this answer, retried on the ' +
      'schedule, logged on the dashboard. A `410 Gone` answer unsubscribes the hook. Subscribing the same URL again answers the same hook.',
    ok: { 201: hookCreatedSchema }, errors: [401, 403, 409, 429],
  },
  { method: 'delete', path: '/api/v1/hooks/:id', tag: 'public-api', summary: 'Unsubscribe a REST hook (scope hooks:write)', apiKey: true, params: hookParamsSchema, ok: { 204: noContent }, errors: [401, 403, 404, 429] },

  // Text alerts (SMS) to the agent
  { method: 'get', path: '/api/agents/:id/sms', tag: 'notifications', summary: "The agent's text alerts: number, state (off, pending, active, stopped by STOP), consent time", params: id, ok: { 200: smsViewSchema }, errors: [403, 404] },
  {
    method: 'put', path: '/api/agents/:id/sms', tag: 'notifications', summary: 'Text a one-time code to a US mobile number (the consent shown beside it must be agreed)', params: id, body: smsNumberSchema,
    description: 'A new number starts over (no texts until its code is entered). 3 codes per 10 minutes per agent. An admin\'s Login As may not change it.',
    ok: { 200: smsViewSchema }, errors: [403, 404, 429, 502],
  },
  {
    method: 'post', path: '/api/agents/:id/sms/verify', tag: 'notifications', summary: 'Enter the texted code: text alerts turn on and the consent is stored (time, text shown, address)', params: id, body: smsVerifySchema,
    ok: { 200: smsViewSchema }, errors: [403, 404, 409],
  },
  { method: 'delete', path: '/api/agents/:id/sms', tag: 'notifications', summary: 'Turn text alerts off', params: id, ok: { 200: smsViewSchema }, errors: [403, 404] },
  {
    method: 'post', path: '/api/webhooks/twilio/sms', tag: 'notifications', summary: "Twilio's inbound-message webhook: STOP (and the other opt-out words) pauses texts at once, START resumes",
    headers: z.object({ 'x-twilio-signature': z.string() }),
    body: { contentType: 'application/x-www-form-urlencoded', schema: z.record(z.string(), z.string()), description: "Twilio's message fields (From, Body, …), verified against X-Twilio-Signature" },
    ok: { 200: { contentType: 'text/xml', description: 'An empty TwiML response' } }, errors: [403, 404],
  },

  // Uploads
  { method: 'post', path: '/api/objects/upload', auth: 'agent', tag: 'uploads', summary: 'A signed, expiring PUT URL for one image',
    description: 'Only for a session with an agent (wizard or logged in): otherwise 403 `uploads.agent_required`.', body: z.object({}), ok: { 200: uploadSlotSchema }, errors: [403, 429] },
  {
    method: 'put', path: '/api/objects/local/:id', tag: 'uploads', summary: "The local disk provider's signed PUT", params: z.object({ id: z.uuid() }),
    query: z.object({ expires: z.string(), sig: z.string() }), body: image, ok: { 200: storedUploadSchema }, errors: [403, 404, 409, 413, 415],
  },
  {
    method: 'get', path: '/objects/uploads/:id', tag: 'uploads', summary: 'An uploaded image, or a resized variant (?w=)', params: z.object({ id: z.uuid() }),
    query: z.object({ w: z.string().optional() }), ok: { 200: image, 304: { contentType: 'image/*', description: 'Not modified (ETag)' } }, errors: [404],
  },

  // Campaigns
  { method: 'post', path: '/api/campaigns', tag: 'campaigns', summary: 'Save the wizard draft as a campaign', body: campaignDraftSchema, ok: { 201: Campaign }, errors: [403, 404] },
  { method: 'get', path: '/api/campaigns/:id', tag: 'campaigns', summary: 'One campaign', description: "Another session's campaign answers 404, like an unknown one.", params: id, ok: { 200: Campaign }, errors: [403, 404] },
  { method: 'patch', path: '/api/campaigns/:id', tag: 'campaigns', summary: "Replace a draft's content (also while its payment is pending)", params: id, body: campaignDraftSchema, ok: { 200: Campaign }, errors: [403, 404, 409] },
  { method: 'post', path: '/api/listings/:id/optimize-ad-copy', auth: 'agent', tag: 'campaigns', summary: 'Fair-Housing-checked ad copy for a listing', params: id, body: adCopyRequestSchema, ok: { 200: adCopyResponseSchema }, errors: [403, 404, 429, 502] },
  { method: 'post', path: '/api/ad-copy/check', tag: 'campaigns', summary: 'Fair Housing findings in a text', body: adCopyCheckSchema, ok: { 200: adCopyCheckResponseSchema }, errors: [429] },
  { method: 'post', path: '/api/targeting/preview', tag: 'campaigns', summary: 'Interests and estimated reach for a place and price', body: targetingPreviewSchema, ok: { 200: targetingPreviewResponseSchema } },

  // Help assistant (spec 001 §2, §7)
  {
    method: 'post', path: '/api/ai-help', auth: 'agent-optional', tag: 'help', summary: 'Ask the help assistant (first request or follow-up), answered in Markdown',
    description: "First: {topic, context}. Follow-up: {topic: 'follow-up', context: {...original, originalTopic, previousMessages (last 2), followUpQuestion}}. Grounded in the agent's integration state (never its secrets).",
    body: z.union([helpFirstRequestSchema, helpFollowUpRequestSchema]), ok: { 200: helpResponseSchema }, errors: [400, 404, 429, 502],
  },

  // Payments
  { method: 'post', path: '/api/create-payment-intent', auth: 'agent', tag: 'payments', summary: "Start (or resume) the campaign's checkout", body: createPaymentIntentSchema, ok: { 200: createPaymentIntentResponseSchema }, errors: [403, 404, 409, 502] },
  { method: 'post', path: '/api/webhook/payment-success', auth: 'agent', tag: 'payments', summary: 'The success screen: settle a payment the provider confirms, then launch', body: paymentSuccessSchema, ok: { 200: paymentSuccessResponseSchema }, errors: [402, 403, 404, 502] },
  { method: 'post', path: '/api/payments/local/confirm', tag: 'payments', summary: 'Local test payments: pay with a Stripe test card (or save it, with a SetupIntent\'s client secret)', body: localConfirmSchema, ok: { 200: localPaymentAnswerSchema }, errors: [404, 409, 429] },
  { method: 'get', path: '/api/agents/:id/saved-card', tag: 'payments', summary: "The agent's saved card (brand, last 4, expiry), charged by autopilot", params: id, ok: { 200: savedCardViewSchema }, errors: [403, 404] },
  {
    method: 'post', path: '/api/agents/:id/saved-card/setup', tag: 'payments', summary: 'Save a card: a SetupIntent (usage off_session) on the agent\'s customer, for the card form',
    description: "Refused to an admin's Login As. The card saved before stays until the new one is set up.", params: id, ok: { 200: cardSetupSchema }, errors: [403, 404, 429, 502],
  },
  { method: 'post', path: '/api/agents/:id/saved-card/confirm', tag: 'payments', summary: 'After the card form confirmed the SetupIntent: the provider says whether the card is saved', params: id, body: cardSetupConfirmSchema, ok: { 200: savedCardViewSchema }, errors: [403, 404, 409, 502] },
  { method: 'delete', path: '/api/agents/:id/saved-card', tag: 'payments', summary: 'Forget the saved card (detached at the provider)', params: id, ok: { 200: savedCardViewSchema }, errors: [403, 404, 502] },
  { method: 'get', path: '/api/campaigns/:id/wizard', tag: 'campaigns', summary: 'A draft reopened in the wizard: the campaign, its agent and its listing', params: id, ok: { 200: campaignWizardSchema }, errors: [403, 404, 409] },
  // Autopilot (DESIGN §7)
  {
    method: 'get', path: '/api/agents/:id/autopilot', tag: 'autopilot', summary: "The agent's autopilot: settings, saved card, scheduled drafts and history",
    params: id, ok: { 200: autopilotViewSchema }, errors: [403, 404],
  },
  {
    method: 'put', path: '/api/agents/:id/autopilot', tag: 'autopilot', summary: 'Change any of the settings (`{"enabled": true}` alone turns it on with the defaults)',
    description: "Owner only (refused to an admin's Login As). 409 `autopilot.needs_mls` for an agent without an MLS identity.", params: id, body: autopilotSettingsInputSchema,
    ok: { 200: autopilotViewSchema }, errors: [403, 404, 409],
  },
  {
    method: 'post', path: '/api/agents/:id/autopilot/runs/:runId/:action', tag: 'autopilot', summary: 'Launch now, skip a draft, or resume a paused ad (the dashboard\'s buttons)',
    params: autopilotRunParams, ok: { 200: autopilotRunSchema }, errors: [403, 404, 409],
  },
  { method: 'get', path: '/api/autopilot/links/:token', tag: 'autopilot', summary: 'What an emailed one-tap link does (no login; signed, single use, expiring)', params: autopilotLinkParams, ok: { 200: autopilotLinkViewSchema }, errors: [404, 410, 429] },
  { method: 'post', path: '/api/autopilot/links/:token', tag: 'autopilot', summary: 'Use an emailed one-tap link: Launch now, Skip, Resume; Edit, card and confirm log the browser in', params: autopilotLinkParams, ok: { 200: autopilotLinkResultSchema }, errors: [404, 409, 410, 429] },
  { method: 'post', path: '/api/payments/local/authenticate', tag: 'payments', summary: 'Local test payments: answer the 3D Secure step', body: localAuthenticateSchema, ok: { 200: localPaymentAnswerSchema }, errors: [404, 409, 429] },
  {
    method: 'post', path: '/api/webhooks/stripe', tag: 'payments', summary: "Stripe's signed webhook (PaymentIntent events)",
    headers: z.object({ 'stripe-signature': z.string() }), body: { contentType: 'application/json', schema: z.record(z.string(), z.unknown()), description: 'A Stripe event, verified against Stripe-Signature' },
    ok: { 200: stripeWebhookAnswerSchema }, errors: [404],
  },
];

/** Every route the app mounts: each module's list (declared beside its handlers, exported by its door), then the lines not yet moved. */
export const API_ROUTES: RouteSpec[] = [...routeSpecs(), ...LEGACY.map(({ apiKey: _apiKey, ...doc }) => ({ ...doc, auth: authOf({ ...doc, apiKey: _apiKey }) }))];

/** `/api/agents/:id` → `/api/agents/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const isRaw = isRawBody;

function content(value: ZodType | RawBody) {
  if (isRaw(value)) return value.schema ? { [value.contentType]: { schema: value.schema } } : undefined;
  return { 'application/json': { schema: json(value) } };
}

/**
 * `get /api/agents/:id/facebook-metrics` → `getAgentsByIdFacebookMetrics`: the method and the path, which name a
 * route once (`/api` left out), so a generated client's method names stay as long as the routes do.
 */
export function operationIdOf(doc: Pick<RouteSpec, 'method' | 'path'>): string {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const words = doc.path.replace(/^\/api\//, '/').split(/[/.-]+/).filter(Boolean);
  return doc.method + words.map((w) => (w.startsWith(':') ? `By${cap(w.slice(1))}` : cap(w))).join('');
}

/** The declared path parameters, and a string for each one of the path that a route does not declare (a page's `{mlsId}`). */
function pathParams(doc: RouteSpec): z.ZodObject | undefined {
  const names = [...doc.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const missing = names.filter((name) => !doc.params?.shape[name]);
  if (missing.length === 0) return doc.params;
  return (doc.params ?? z.object({})).extend(Object.fromEntries(missing.map((name) => [name, z.string()])));
}

/**
 * The error statuses a route answers (each with the Error body): its own `errors`; 400 for a route with input; and
 * what is refused before any route runs, for a state change: a body the JSON layer refuses (400), and a cross-site
 * request (403; signed provider webhooks are exempt, app.ts).
 */
export function errorStatuses(doc: RouteSpec): number[] {
  const errors = new Set<number>(doc.errors ?? []);
  if (doc.body || doc.params || doc.query || doc.method !== 'get') errors.add(400);
  if (doc.method !== 'get' && !doc.path.startsWith('/api/webhooks/')) errors.add(403);
  return [...errors].sort();
}

function describe(doc: RouteSpec): RouteConfig {
  const responses: RouteConfig['responses'] = {};
  for (const [status, value] of Object.entries(doc.ok) as [string, ZodType | RawBody][]) {
    responses[status] = { description: isRaw(value) ? value.description : 'OK', content: content(value) };
  }
  for (const status of errorStatuses(doc)) {
    responses[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: Error } } };
  }
  if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
    // A GET that takes no input and refuses nobody: only the HTTP server itself refuses such a request.
    responses['4XX'] = { description: 'A malformed HTTP request (400), or headers over 16 KB (431): refused by the HTTP server, without a body' };
  }
  responses.default = { description: 'Any other error (500: an unexpected failure)', content: { 'application/json': { schema: Error } } };
  const body = doc.body && (isRaw(doc.body) ? { description: doc.body.description, content: content(doc.body)! } : { content: content(doc.body)! });
  return {
    method: doc.method,
    path: openApiPath(doc.path),
    operationId: doc.operationId ?? operationIdOf(doc),
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    request: { params: pathParams(doc), query: doc.query, headers: doc.headers, ...(body ? { body: { ...body, required: true } } : {}) },
    responses,
    security: SECURITY[doc.auth],
  };
}

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document (built once: it depends on nothing but this file). */
export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'AgentSession', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The browser session (signed, httpOnly, SameSite=Lax), set by the API itself: signed in as the agent (login, an opened email link, ' +
      "Google, an admin's Login As), or the wizard's draft access to the agents this browser found or made. State changes must come from this origin.",
  });
  registry.registerComponent('securitySchemes', 'AdminSession', {
    type: 'apiKey',
    in: 'cookie',
    name: ADMIN_COOKIE,
    description: 'The admin session of POST /api/admin/login (signed, httpOnly, SameSite=Strict, Path=/api/admin, 30 minutes), separate from any agent session.',
  });
  registry.registerComponent('securitySchemes', 'ApiKeyBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key made on the dashboard (la_…), as `Authorization: Bearer <key>`. Keys are scoped (leads:read, hooks:write) and rate limited.',
  });
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same API key, as `X-API-Key: <key>`.' });
  for (const route of API_ROUTES) registry.registerPath(describe(route));
  registry.registerWebhook({
    method: 'post',
    path: 'lead.created',
    operationId: 'leadCreated',
    tags: ['webhooks'],
    summary: 'A buyer sent a lead on one of the agent\'s listings',
    description:
      "Sent to the agent's webhook URL (and Zapier) for every new lead, signed per Standard Webhooks (https://www.standardwebhooks.com): " +
      'verify webhook-signature over `${webhook-id}.${webhook-timestamp}.${body}` with the endpoint secret (whsec_…), refuse timestamps older ' +
      'than 5 minutes, and answer 2xx. Failed deliveries are retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); ' +
      'Retry-After is honoured; 410 disables the endpoint.',
    request: { headers: webhookHeadersSchema, body: { required: true, content: { 'application/json': { schema: LeadCreated } } } },
    responses: {
      200: { description: 'Received (any 2xx)' },
      410: { description: 'Gone: the endpoint is disabled and no more events are sent' },
    },
    // What the receiver checks is the Standard Webhooks signature in the headers above, not a credential of ours.
    security: [],
  });
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Listing Ads API',
      version: '1.0.0',
      // Not open source: the API is used under the product's terms (the page the checkout links to).
      license: { name: 'Proprietary: used under the Listing Ads Terms of Service', url: '/terms' },
      termsOfService: '/terms',
      description:
        `Promote a property listing with a paid Facebook/Instagram campaign. Browser sessions use the ${SESSION_COOKIE} cookie, the admin the ${ADMIN_COOKIE} cookie, the public API (/api/v1) an API key; ` +
        'state-changing requests from a browser must come from the same origin (CSRF check). Errors are JSON {message, code, fields?}.',
    },
    servers: [{ url: '/' }],
  }) as unknown as Record<string, unknown>;
  return cached;
}

/** GET /api/openapi.json and the reference page, GET /api/docs. */
export function apiDocsRouter(): Router {
  const router = new Router();
  router.get('/api/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openApiDocument();
  });
  router.get('/api/docs', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'text/html';
    ctx.body = renderApiReference(openApiDocument() as never, '/api/openapi.json');
  });
  return router;
}

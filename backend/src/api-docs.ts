import Router from '@koa/router';
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z, type ZodType } from 'zod';
import { errorBodySchema, leadCreatedWebhookSchema, webhookHeadersSchema } from '@app/contracts';
import { renderApiReference } from './platform/http/api-reference';
import { defineRoutes, isRawBody, route, type Auth, type RawBody, type RouteSpec } from './platform/http/route';
import { platformRoutes } from './platform/http/platform.routes';
import { routeSpecs } from './modules';
import { ADMIN_COOKIE } from './platform/http/admin-session';
import { SESSION_COOKIE } from './platform/http/session-store';

/**
 * The OpenAPI 3.1 document (GET /api/openapi.json, readable at /api/docs), generated from the routes as their routers
 * declare them: each `*.routes.ts` declares its routes once, as data (platform/http/route.ts: path, input schemas,
 * answers, errors, auth), and registers them with `route()`, which validates with those very schemas. This file only
 * collects the lists (each module's door exports its own) and writes the document; api-docs.test.ts fails for a
 * mounted route that is not declared, or declared but not mounted. The document must pass Redocly's recommended
 * ruleset: `npm run lint:openapi`, run by npm test.
 */

// Named components: responses refer to them by $ref.
const Error = errorBodySchema.meta({ id: 'Error', description: 'Every error answer (DESIGN §4): `fields` maps a dotted field path to its first message.' });
const LeadCreated = leadCreatedWebhookSchema.meta({ id: 'LeadCreatedEvent' });

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  public: [],
  agent: [{ AgentSession: [] }],
  'agent-optional': [{}, { AgentSession: [] }],
  admin: [{ AdminSession: [] }],
  'admin-optional': [{}, { AdminSession: [] }],
  apiKey: [{ ApiKeyBearer: [] }, { ApiKeyHeader: [] }],
};

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

/** This document's own routes (apiDocsRouter below). */
const apiDocsRoutes = defineRoutes({
  document: { method: 'get', path: '/api/openapi.json', auth: 'public', tag: 'platform', summary: 'This document (OpenAPI 3.1)', ok: { 200: z.record(z.string(), z.unknown()) } },
  page: { method: 'get', path: '/api/docs', auth: 'public', tag: 'platform', summary: 'This document as a readable page', ok: { 200: { contentType: 'text/html', description: 'The API reference page' } } },
});

/** Every route the app mounts, as its router declares it: the app's own, this document's, and each module's (from its door). */
export const API_ROUTES: RouteSpec[] = [...Object.values<RouteSpec>(platformRoutes), ...Object.values<RouteSpec>(apiDocsRoutes), ...routeSpecs()];

/** `/api/agents/:id` → `/api/agents/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function content(value: ZodType | RawBody) {
  if (isRawBody(value)) return value.schema ? { [value.contentType]: { schema: value.schema } } : undefined;
  return { 'application/json': { schema: value } };
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
    responses[status] = { description: isRawBody(value) ? value.description : 'OK', content: content(value) };
  }
  for (const status of errorStatuses(doc)) {
    responses[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: Error } } };
  }
  if (!Object.keys(responses).some((status) => status.startsWith('4'))) {
    // A GET that takes no input and refuses nobody: only the HTTP server itself refuses such a request.
    responses['4XX'] = { description: 'A malformed HTTP request (400), or headers over 16 KB (431): refused by the HTTP server, without a body' };
  }
  responses.default = { description: 'Any other error (500: an unexpected failure)', content: { 'application/json': { schema: Error } } };
  const body = doc.body && (isRawBody(doc.body) ? { description: doc.body.description, content: content(doc.body)! } : { content: content(doc.body)! });
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
  route(router, apiDocsRoutes.document, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openApiDocument();
  });
  route(router, apiDocsRoutes.page, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'text/html';
    ctx.body = renderApiReference(openApiDocument() as never, '/api/openapi.json');
  });
  return router;
}

import type Router from '@koa/router';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Next } from 'koa';
import type { z, ZodType } from 'zod';
import { validate, type Validated } from './validate';

/**
 * A route declared once, as data: what it takes (params, query, body: the schemas `route()` validates with), what
 * it answers, who may call it and how it fails. `route()` registers the handler with exactly these schemas, and
 * api-docs.ts generates the OpenAPI document from the same objects (each module's door exports its list).
 */

/**
 * Who may call a route, as the document's `security`:
 * - `public`: no credential (public pages, signed links and webhooks, the login routes that start a session);
 * - `agent`: the browser session (signed in as the agent, or the wizard's draft access to it);
 * - `agent-optional`: the browser session when there is one (the answer depends on it), none otherwise;
 * - `admin`, `admin-optional`: the same for the admin session;
 * - `apiKey`: an API key (the public API, /api/v1).
 */
export type Auth = 'public' | 'agent' | 'agent-optional' | 'admin' | 'admin-optional' | 'apiKey';

export type Status = 200 | 201 | 202 | 204 | 302 | 304 | 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 502 | 503;

/** A body that is not JSON (or not validated as such): its media type and, for the document, a schema for it. */
export interface RawBody {
  contentType: string;
  schema?: ZodType;
  description: string;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec {
  method: Method;
  /** As the router mounts it (`/api/agents/:id`). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  /** Validated (a 400 with field messages when they do not parse), and documented. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** A zod schema is validated; a raw body (an image, a provider's signed form) is only documented. */
  body?: ZodType | RawBody;
  /** Documented only: what a signed webhook's caller sends. */
  headers?: z.ZodObject;
  /** Successful answers (and answers with their own body): a JSON schema, or a raw body (images, HTML). */
  ok: Partial<Record<Status, ZodType | RawBody>>;
  /** Error statuses this route answers with (each with the Error body); 400 is added for routes with input. */
  errors?: Status[];
  /** The operation's name for a client generator; by default the method and the path (api-docs operationIdOf). */
  operationId?: string;
}

export function isRawBody(value: ZodType | RawBody): value is RawBody {
  return typeof (value as RawBody).contentType === 'string';
}

type Parsed<S extends RouteSpec> = {
  params: S['params'];
  query: S['query'];
  body: S['body'] extends ZodType ? S['body'] : undefined;
};

/** What the handler receives: the parsed params, query and body, typed by the spec's schemas. */
export type InputOf<S extends RouteSpec> = Validated<Parsed<S>>;

export type RouteHandler<S extends RouteSpec> = (ctx: RouterContext, input: InputOf<S>, next: Next) => unknown;

/** A module's routes, named: keeps each spec's literal types (its schemas) for `route()`'s typed input. */
export function defineRoutes<const T extends Record<string, RouteSpec>>(specs: T): T {
  return specs;
}

const SPEC = Symbol('route spec');

/**
 * Registers `spec`'s route on `router`: the given middleware (rate limits, guards) run first, then the request is
 * validated with the spec's params, query and JSON body (as `validate()`: a 400 with field messages), then the
 * handler runs with the parsed input (and `next`, for a handler that hands on, like passport's).
 */
export function route<const S extends RouteSpec>(router: Router, spec: S, ...stack: [...RouterMiddleware[], RouteHandler<S>]): void {
  const handler = stack[stack.length - 1] as RouteHandler<S>;
  const before = stack.slice(0, -1) as RouterMiddleware[];
  const body = spec.body && !isRawBody(spec.body) ? spec.body : undefined;
  const check = Object.assign(validate({ params: spec.params, query: spec.query, body }), { [SPEC]: spec });
  router[spec.method](spec.path, ...before, check as RouterMiddleware, (ctx, next) => handler(ctx, ctx.state.input as InputOf<S>, next));
}

const DECLARED = Symbol('declared spec');

/**
 * A route validated with other schemas than the ones it documents: a schema that depends on the configuration (a
 * development-only relaxation, such as plain http:// webhook URLs beside a loopback receiver; documented with the
 * production rule), or one that picks a branch of the documented union itself (for messages about that branch only).
 * api-docs.test.ts lists these routes.
 */
export function configured<S extends RouteSpec, O extends Pick<RouteSpec, 'params' | 'query'> & { body?: ZodType }>(spec: S, schemas: O): Omit<S, keyof O> & O {
  return Object.assign({ ...spec, ...schemas }, { [DECLARED]: spec });
}

/** The spec a mounted layer was registered with by `route()` (read from its middleware), if any. */
export function routeSpecIn(stack: readonly unknown[]): RouteSpec | undefined {
  for (const fn of stack) {
    const spec = (fn as { [SPEC]?: RouteSpec })[SPEC];
    if (spec) return spec;
  }
  return undefined;
}

/** The declared spec a `configured()` one was made from (undefined for a spec used as declared). */
export function declaredSpecOf(spec: RouteSpec): RouteSpec | undefined {
  return (spec as { [DECLARED]?: RouteSpec })[DECLARED];
}

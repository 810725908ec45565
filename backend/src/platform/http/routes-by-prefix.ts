import type Koa from 'koa';
import Router from '@koa/router';

/** The first two segments of a path (`/api/campaigns`), lower-cased as the router matches: a bucket's key. */
const TWO_SEGMENTS = /^\/[^/]+\/[^/]+/;
/** The first segment (`/api`), lower-cased. */
const ONE_SEGMENT = /^\/[^/]*/;
/** path-to-regexp's characters that make a segment match more than its own text (parameters, wildcards, groups). */
const PATTERN = /[:*(){}[\]+?!\\]/;

const twoSegmentsOf = (p: string): string | undefined => TWO_SEGMENTS.exec(p)?.[0].toLowerCase();
const firstSegmentOf = (p: string): string => ONE_SEGMENT.exec(p)?.[0].toLowerCase() ?? '';

type Layer = Router['stack'][number];

/** A request path's segments as the buckets look them up, found once per request (four routers ask). */
interface Segments {
  path: string;
  two: string | undefined;
  one: string;
}
const SEGMENTS = Symbol('routes-by-prefix segments');

function segmentsOf(ctx: Koa.Context): Segments {
  const path = ctx.path;
  const known = (ctx as { [SEGMENTS]?: Segments })[SEGMENTS];
  if (known && known.path === path) return known;
  const segments = { path, two: twoSegmentsOf(path), one: firstSegmentOf(path) };
  (ctx as { [SEGMENTS]?: Segments })[SEGMENTS] = segments;
  return segments;
}

/** A layer's first two segments when both are plain text (it can only match paths under them), else undefined. */
function literalTwo(layer: Layer): string | undefined {
  if (typeof layer.path !== 'string') return undefined;
  const key = twoSegmentsOf(String(layer.path));
  return key && !PATTERN.test(key) ? key : undefined;
}

/** A layer's first segment when it is plain text, else undefined (it may match any path). */
function literalOne(layer: Layer): string | undefined {
  if (typeof layer.path !== 'string') return undefined;
  const key = firstSegmentOf(String(layer.path));
  return key && !PATTERN.test(key) ? key : undefined;
}

/**
 * `router`'s routes as one middleware that tries only the routes under a request's first two path segments:
 * `/api/campaigns/7` is matched against the four routes under `/api/campaigns`, not against all hundred (every
 * route's regular expression was a twentieth of a cached read's CPU), and a request no route can take (an
 * `/api/…` request at the public pages' router) passes the router by without its dispatch.
 * - Routes whose first two segments are not plain text (a parameter) are in every bucket, in their place.
 * - A request under no bucket that such a route may take, or that no route of its bucket takes, goes through
 *   the whole router, as before: its 404 and 405 answers are the router's own.
 * - A request that no route can take is handed on as the router's dispatch hands it on (`ctx.matched` at least
 *   empty, so a later allowedMethods layer still answers 501 to a method no router implements).
 * Carries `.router` (the whole router), as a router's middleware does, for the code that lists mounted routes.
 */
export function routesByPrefix(router: Router): Koa.Middleware {
  const all = router.routes();
  const buckets = new Map<string, Router>();
  for (const layer of router.stack) {
    const key = literalTwo(layer);
    if (key && !buckets.has(key)) buckets.set(key, new Router());
  }
  for (const layer of router.stack) {
    const key = literalTwo(layer);
    for (const [bucketKey, bucket] of buckets) if (!key || key === bucketKey) bucket.stack.push(layer);
  }
  const dispatch = new Map([...buckets].map(([key, bucket]) => [key, bucket.routes()]));
  // The routes outside every bucket: the first segments they may match, or any path at all.
  const others = router.stack.filter((layer) => !literalTwo(layer));
  const anyPath = others.some((layer) => !literalOne(layer));
  const otherFirstSegments = new Set(others.map(literalOne));
  const byPrefix: Koa.Middleware = (ctx, next) => {
    const segments = segmentsOf(ctx);
    const bucket = segments.two === undefined ? undefined : dispatch.get(segments.two);
    if (bucket) {
      // The bucket's dispatch sets routeMatched before it runs a route or hands on.
      return bucket(ctx as never, () => ((ctx as { routeMatched?: boolean }).routeMatched ? next() : all(ctx as never, next)));
    }
    if (anyPath || otherFirstSegments.has(segments.one)) return all(ctx as never, next);
    // No route of this router can take the request: hand it on as the router's dispatch would.
    const routed = ctx as { matched?: Layer[]; router?: Router; routeMatched?: boolean };
    routed.matched ??= [];
    routed.router = router;
    routed.routeMatched = false;
    return next();
  };
  return Object.assign(byPrefix, { router });
}

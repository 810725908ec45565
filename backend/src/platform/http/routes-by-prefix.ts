import type Koa from 'koa';
import Router from '@koa/router';

/** The first two segments of a path (`/api/campaigns`), lower-cased as the router matches: its bucket's key. */
const PREFIX = /^\/[^/]+\/[^/]+/;
const prefixOf = (p: string): string | undefined => PREFIX.exec(p)?.[0].toLowerCase();

/**
 * `router`'s routes as one middleware that tries only the routes under a request's first two path segments:
 * `/api/campaigns/7` is matched against the four routes under `/api/campaigns`, not against all hundred (every
 * route's regular expression was a twentieth of a cached read's CPU). Routes whose first two segments are not
 * plain text (a parameter) are in every bucket, in their place. A request under no bucket, or that no route of
 * its bucket takes, goes through the whole router, as before: its 404 and 405 answers are the router's own.
 * Carries `.router` (the whole router), as a router's middleware does, for the code that lists mounted routes.
 */
export function routesByPrefix(router: Router): Koa.Middleware {
  const all = router.routes();
  const literal = (layer: Router['stack'][number]) => {
    const key = prefixOf(String(layer.path));
    return key && !/[:*(?{]/.test(key) ? key : undefined;
  };
  const buckets = new Map<string, Router>();
  for (const layer of router.stack) {
    const key = literal(layer);
    if (key && !buckets.has(key)) buckets.set(key, new Router());
  }
  for (const layer of router.stack) {
    const key = literal(layer);
    for (const [bucketKey, bucket] of buckets) if (!key || key === bucketKey) bucket.stack.push(layer);
  }
  const dispatch = new Map([...buckets].map(([key, bucket]) => [key, bucket.routes()]));
  const byPrefix: Koa.Middleware = (ctx, next) => {
    const key = prefixOf(ctx.path);
    const bucket = key === undefined ? undefined : dispatch.get(key);
    if (!bucket) return all(ctx as never, next);
    // The bucket's dispatch sets routeMatched before it runs a route or hands on.
    return bucket(ctx as never, () => ((ctx as { routeMatched?: boolean }).routeMatched ? next() : all(ctx as never, next)));
  };
  return Object.assign(byPrefix, { router });
}


import nock from 'nock';
import { createdBody, interestSearchBody, parseGraphForm, type Edge } from './meta-graph-shapes';

/** Test support: the Graph API under nock, for the Meta launch tests. */

const GRAPH = 'https://graph.facebook.com';
const V = '/v26.0';
const ACT = `${V}/act_1234`;

export type GraphHandler = (body: Record<string, any>, n: number) => [number, Record<string, unknown>];

let graphRuns = 0;

/**
 * A nock'd Graph API: records every POST body by edge, answers lookups with nothing found unless told
 * otherwise. Object ids are unique across the file (our tables hold them under unique keys): `id(edge, n)`
 * is the id of the n-th object created on that edge in this mock.
 */
export function mockGraph(
  handlers: Partial<Record<Edge, GraphHandler>> = {},
  lookups: Partial<Record<'campaigns' | 'adsets' | 'ads', Record<string, unknown>[]>> = {},
  opts: { latencyMs?: number } = {},
) {
  const run = ++graphRuns;
  const seq = (n: number) => run * 1000 + n;
  const id = (edge: Exclude<Edge, 'adimages'>, n: number) => String(createdBody(edge, seq(n)).id);
  const posts: Record<Edge, Record<string, any>[]> = { campaigns: [], adsets: [], adimages: [], adcreatives: [], ads: [] };
  const auth: string[] = [];
  const urls: string[] = [];
  // nock 15 hands a reply function the fetch Request itself.
  const pathOf = (req: Request) => {
    const u = new URL(req.url);
    return { path: u.pathname, query: u.searchParams, full: u.pathname + u.search };
  };
  nock(GRAPH)
    .persist()
    .post((uri) => uri.startsWith(`${ACT}/`))
    .reply(async (req: Request) => {
      const { path: p, full } = pathOf(req);
      urls.push(full);
      auth.push(String(req.headers.get('authorization')));
      const edge = p.slice(ACT.length + 1) as Edge;
      const parsed = parseGraphForm(await req.text());
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
      posts[edge].push(parsed);
      const n = posts[edge].length;
      return (handlers[edge] ?? ((_b, i) => [200, createdBody(edge, seq(i))]))(parsed, n);
    })
    .get((uri) => /^\/v26\.0\/act_1234\/(campaigns|adsets|ads)\?/.test(uri))
    .reply(async (req: Request) => {
      const { path: p, query, full } = pathOf(req);
      urls.push(full);
      auth.push(String(req.headers.get('authorization')));
      const edge = p.slice(ACT.length + 1) as 'campaigns' | 'adsets' | 'ads';
      const name = JSON.parse(query.get('filtering') ?? '[]')[0]?.value;
      return [200, { data: (lookups[edge] ?? []).filter((r) => r.name === name), paging: { cursors: { before: 'a', after: 'b' } } }];
    })
    .get((uri) => uri.startsWith(`${V}/search?`))
    .reply(async (req: Request) => {
      const { query, full } = pathOf(req);
      urls.push(full);
      auth.push(String(req.headers.get('authorization')));
      return [200, interestSearchBody(query.get('q') ?? '')];
    });
  return { posts, auth, urls, id, seq };
}


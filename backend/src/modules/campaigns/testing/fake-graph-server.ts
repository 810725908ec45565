import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createdBody, graphError, interestSearchBody, parseGraphForm, type Edge } from './meta-graph-shapes';

/**
 * A small fake of the Graph API endpoints the launch calls, on loopback, for tests that run the real
 * server in a child process (nock cannot reach into it) and for the launch benchmark. It keeps what
 * it "created" so lookups by name find it, like Meta's filtering does, and can hang a request after
 * creating its object — the moment a process crash loses Meta's answer.
 */
export interface FakeGraph {
  url: string;
  version: string;
  /** POSTs received per edge. */
  posts: Record<Edge, number>;
  /** Objects created per edge (a hung request still creates its object). */
  created: Record<Exclude<Edge, 'adimages'>, { id: string; name: string; [k: string]: unknown }[]>;
  /** The next `n` POSTs to `edge` create their object and never answer; `onHang` is told. */
  hang(edge: Edge, n?: number, onHang?: () => void): void;
  /** Added latency per request (ms), to model Meta's response times. */
  latencyMs: number;
  close(): Promise<void>;
}

export async function startFakeGraph(opts: { version?: string; adAccountId?: string; accessToken?: string; latencyMs?: number } = {}): Promise<FakeGraph> {
  const version = opts.version ?? 'v26.0';
  const act = opts.adAccountId ?? 'act_1234';
  const token = opts.accessToken ?? 'test-meta-token';
  const posts: FakeGraph['posts'] = { campaigns: 0, adsets: 0, adimages: 0, adcreatives: 0, ads: 0 };
  const created: FakeGraph['created'] = { campaigns: [], adsets: [], adcreatives: [], ads: [] };
  const hangs = new Map<Edge, { n: number; onHang?: () => void }>();
  const hung = new Set<http.ServerResponse>();
  let seq = 0;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const handle = () => {
        const url = new URL(req.url ?? '/', 'http://fake-graph');
        if (req.headers.authorization !== `Bearer ${token}`) return send(res, 400, graphError(190, 'Invalid OAuth access token.'));
        const prefix = `/${version}/${act}/`;
        if (req.method === 'POST' && url.pathname.startsWith(prefix)) {
          const edge = url.pathname.slice(prefix.length) as Edge;
          if (!(edge in posts)) return send(res, 400, graphError(100, `Unknown path components: /${edge}`));
          posts[edge]++;
          const body = parseGraphForm(Buffer.concat(chunks).toString('utf8'));
          const answer = createdBody(edge, ++seq);
          if (edge !== 'adimages') created[edge].push({ ...body, id: String(answer.id), name: String(body.name ?? '') });
          const hang = hangs.get(edge);
          if (hang && hang.n > 0) {
            hang.n--;
            hung.add(res);
            hang.onHang?.();
            return undefined;
          }
          return send(res, 200, answer);
        }
        if (req.method === 'GET' && url.pathname.startsWith(prefix)) {
          const edge = url.pathname.slice(prefix.length) as Exclude<Edge, 'adimages'>;
          const filter = JSON.parse(url.searchParams.get('filtering') ?? '[]') as { field: string; operator: string; value: string }[];
          const byName = filter.find((f) => f.field === 'name' && f.operator === 'EQUAL');
          const rows = (created[edge] ?? []).filter((o) => !byName || o.name === byName.value);
          return send(res, 200, { data: rows.map((o) => ({ id: o.id, name: o.name, campaign_id: o.campaign_id, adset_id: o.adset_id })) });
        }
        if (req.method === 'GET' && url.pathname === `/${version}/search`) return send(res, 200, interestSearchBody(url.searchParams.get('q') ?? ''));
        if (req.method === 'GET' && url.pathname.endsWith('/insights')) return send(res, 200, { data: [] });
        return send(res, 400, graphError(100, 'Unsupported request'));
      };
      if (fake.latencyMs > 0) setTimeout(handle, fake.latencyMs);
      else handle();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeGraph = {
    url: `http://127.0.0.1:${port}`,
    version,
    posts,
    created,
    latencyMs: opts.latencyMs ?? 0,
    hang(edge, n = 1, onHang) {
      hangs.set(edge, { n, onHang });
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

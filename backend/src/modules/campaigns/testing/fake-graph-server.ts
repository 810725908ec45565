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
  /** Insights calls answered, and campaigns paused (POST /{campaign-id} status=PAUSED). */
  insightsCalls: number;
  paused: Set<string>;
  /**
   * Delivery per campaign id for the account's insights (level=campaign, time_increment=1 or
   * date_preset=maximum): `days` daily rows of `perDay` impressions; absent ids have no data.
   */
  delivery: Map<string, { startDay: string; days: number; perDay: number }>;
  /** The ads_insights usage the x-business-use-case-usage header reports: this many percent per call. */
  usagePerCallPercent: number;
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
  const delivery: FakeGraph['delivery'] = new Map();
  const paused = new Set<string>();
  let insightsCalls = 0;

  /** GET /act_{id}/insights: rows of the filtered campaigns, paged by `limit` with an opaque `after` cursor. */
  const insights = (url: URL) => {
    insightsCalls++;
    const filter = JSON.parse(url.searchParams.get('filtering') ?? '[]') as { field: string; operator: string; value: string[] }[];
    const ids = filter.find((f) => f.field === 'campaign.id' && f.operator === 'IN')?.value ?? [];
    const daily = url.searchParams.get('time_increment') === '1';
    const rows: Record<string, string>[] = [];
    for (const id of ids) {
      const d = delivery.get(id);
      if (!d) continue;
      const start = Date.parse(`${d.startDay}T00:00:00Z`);
      const figures = (impressions: number) => ({
        impressions: String(impressions), reach: String(Math.round(impressions * 0.7)), clicks: String(Math.round(impressions / 100)),
        inline_link_clicks: String(Math.round(impressions / 125)), spend: (impressions / 200).toFixed(2),
      });
      if (daily) {
        for (let i = 0; i < d.days; i++) {
          const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
          rows.push({ campaign_id: id, date_start: day, date_stop: day, ...figures(d.perDay), ctr: '1.0', frequency: '1.43' });
        }
      } else rows.push({ campaign_id: id, ...figures(d.perDay * d.days), frequency: '1.43' });
    }
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const offset = Number(url.searchParams.get('after') ?? 0);
    const page = rows.slice(offset, offset + limit);
    const more = offset + limit < rows.length;
    return { data: page, paging: { cursors: { before: String(offset), after: String(offset + limit) }, ...(more ? { next: `https://graph.example/next?after=${offset + limit}` } : {}) } };
  };

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
        if (req.method === 'GET' && url.pathname === `${prefix}insights`) {
          const body = insights(url);
          res.writeHead(200, {
            'content-type': 'application/json',
            'x-business-use-case-usage': JSON.stringify({ '1234567890': [{ type: 'ads_insights', call_count: Math.min(100, Math.round(fake.insightsCalls * fake.usagePerCallPercent)), total_cputime: 1, total_time: 1, estimated_time_to_regain_access: 0 }] }),
          });
          return res.end(JSON.stringify(body));
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
        if (req.method === 'POST' && /^\/[^/]+\/\d+$/.test(url.pathname)) {
          paused.add(url.pathname.split('/').pop()!);
          return send(res, 200, { success: true });
        }
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
    get insightsCalls() {
      return insightsCalls;
    },
    paused,
    delivery,
    usagePerCallPercent: 0.01,
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

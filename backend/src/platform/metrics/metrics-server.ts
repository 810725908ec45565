import http from 'node:http';
import client from 'prom-client';
import { poolStatsOf, type Db, type PoolStats } from '../db/knex';
import type { Logger } from '../logger';
import { registry } from './index';
import { sharedQueueCounts, type PgBossQueueRow } from './queue-stats';

let defaultsCollected = false;

/** The gauges registerCollectors makes. */
const COLLECTED = ['listing_ads_db_pool_connections', 'listing_ads_db_pool_waiting', 'listing_ads_job_queue_jobs', 'listing_ads_job_queue_snapshot_age_seconds'];

export interface MetricsSources {
  db: Db;
  /** The job queue's pool (platform/jobs/queue.ts `poolStats`). */
  queuePool: () => PoolStats | undefined;
  /** pg-boss's getQueues(). */
  getQueues: () => Promise<PgBossQueueRow[]>;
  /** The product's queues and their dead-letter queues. */
  queues: { name: string; deadLetter?: string }[];
}

/**
 * The gauges read at scrape time: the database pools of this process, and the job queues' counts from the
 * snapshot every process shares (queue-stats.ts). Registered once per process (startMetricsServer); removed
 * again by the returned function.
 */
function registerCollectors(sources: MetricsSources, log: Logger): () => void {
  const poolStats = (): PoolStats[] => {
    const job = sources.queuePool();
    return [...poolStatsOf(sources.db), ...(job ? [job] : [])];
  };
  new client.Gauge({
    name: 'listing_ads_db_pool_connections',
    help: 'Database connections of this process by pool (knex, pg-boss, pipelined-counts, pipelined-transactions) and state (in_use, idle)',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of poolStats()) {
        this.set({ pool: p.pool, state: 'in_use' }, p.inUse);
        this.set({ pool: p.pool, state: 'idle' }, p.idle);
      }
    },
  });
  new client.Gauge({
    name: 'listing_ads_db_pool_waiting',
    help: 'Callers waiting for a connection of the pool (for a pipelined connection: statements sent and not yet answered)',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of poolStats()) this.set({ pool: p.pool }, p.waiting);
    },
  });
  const snapshot = sharedQueueCounts({ db: sources.db, getQueues: sources.getQueues, queues: sources.queues });
  let last: ReturnType<typeof snapshot> | undefined;
  // Both queue gauges are filled from one read per scrape. A database that does not answer leaves the queue
  // gauges empty (and the age growing) instead of failing the whole scrape.
  const read = () =>
    (last ??= snapshot()
      .catch((err: unknown) => {
        log.warn({ err }, 'metrics: job queue counts unavailable');
        return { counts: [], takenAt: new Date(0) };
      })
      .finally(() => setImmediate(() => (last = undefined))));
  new client.Gauge({
    name: 'listing_ads_job_queue_jobs',
    help: 'Jobs per queue and state (queued, active, failed, dead_lettered), from a snapshot every process shares, refreshed at most every 10 s',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const { counts } = await read();
      for (const c of counts) {
        this.set({ queue: c.queue, state: 'queued' }, c.queued);
        this.set({ queue: c.queue, state: 'active' }, c.active);
        this.set({ queue: c.queue, state: 'failed' }, c.failed);
        this.set({ queue: c.queue, state: 'dead_lettered' }, c.deadLettered);
      }
    },
  });
  new client.Gauge({
    name: 'listing_ads_job_queue_snapshot_age_seconds',
    help: 'Age of the job queue counts shown',
    registers: [registry],
    async collect() {
      const { takenAt } = await read();
      this.set(Math.max(0, (Date.now() - takenAt.getTime()) / 1000));
    },
  });
  return () => {
    for (const name of COLLECTED) registry.removeSingleMetric(name);
  };
}

export interface MetricsServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The metrics listener: GET /metrics (Prometheus text format) on its own port, apart from the public one, so
 * a load balancer or the internet never reaches it. Anything else there is a 404.
 */
export async function startMetricsServer(opts: { port: number; host: string; logger: Logger; sources: MetricsSources }): Promise<MetricsServer> {
  if (!defaultsCollected) {
    // Process and Node.js runtime metrics (CPU, memory, event loop lag, GC), unprefixed as dashboards expect.
    client.collectDefaultMetrics({ register: registry });
    defaultsCollected = true;
  }
  const log = opts.logger.child({ module: 'metrics' });
  const unregister = registerCollectors(opts.sources, log);
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log.error({ err }, 'metrics: collecting failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host}:${port}/metrics`;
  log.info({ url }, 'metrics: serving');
  return {
    url,
    stop: async () => {
      unregister();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

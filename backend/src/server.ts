import http from 'node:http';
import { loadConfig, ConfigError, type Config } from './platform/config';
import { createLogger, type Logger } from './platform/logger';
import { startEmbeddedPostgres, ensureDatabase, type EmbeddedDatabase } from './platform/db/embedded';
import { createDb, migrateLatest, migrateLatestAt, waitForSchema, type Db } from './platform/db/knex';
import { createQueue, type Queue } from './platform/jobs/queue';
import { jobs } from './jobs';
import type { JobDefinition } from './platform/jobs/job';
import { createApp } from './app';
import { withLocalSecrets } from './platform/secrets';
import { seedDemoMls } from './modules/mls';
import { startMetricsServer, type MetricsServer } from './platform/metrics/metrics-server';
import { shutdownTracing } from './platform/telemetry/trace-context';

export interface RunningServer {
  server: http.Server;
  url: string;
  db: Db;
  queue: Queue;
  /** The metrics listener (METRICS_PORT), if on. */
  metrics: MetricsServer | null;
  stop: () => Promise<void>;
}

/** Start everything: database (embedded unless DATABASE_URL), migrations, queue and workers, HTTP. */
export async function startServer(
  rawConfig: Config,
  logger: Logger,
  opts: { jobs?: JobDefinition<any>[] } = {},
): Promise<RunningServer> {
  const t0 = Date.now();
  const config = withLocalSecrets(rawConfig);
  if (!rawConfig.ADMIN_PASSWORD) logger.info({ file: `${config.DATA_DIR}/secrets.json` }, 'admin password: generated, see adminPassword in the secrets file');
  logger.info({ providers: config.providers }, 'providers: %s', Object.entries(config.providers).map(([k, v]) => `${k}=${v}`).join(', '));

  let embedded: EmbeddedDatabase | null = null;
  let connectionString = config.DATABASE_URL;
  if (!connectionString) {
    embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, logger });
    await ensureDatabase(embedded.connectionString('postgres'), 'listing_ads');
    connectionString = embedded.connectionString('listing_ads');
    logger.info({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT }, 'embedded postgres is running');
  }
  // A few warm connections: the first requests after an idle spell need no connection set-up.
  const db = createDb(connectionString, { min: 2, max: 20, pooler: config.DATABASE_POOLER });
  if (config.MIGRATE_ON_START) {
    // Past a pooler, migrations go to PostgreSQL itself when its address is given (README, "Connection pooler").
    const applied = config.DATABASE_DIRECT_URL ? await migrateLatestAt(config.DATABASE_DIRECT_URL) : await migrateLatest(db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  } else {
    // The release's migrate Job applies them (backend/dist/migrate.js); this process serves only once it has.
    let waited = 0;
    await waitForSchema(db, {
      onWait: (pending) => {
        if (waited++ % 15 === 0) logger.info({ pending }, 'waiting for the database migrations (MIGRATE_ON_START=false: run the migrate job)');
      },
    });
  }
  // The demo MLS's bundled records (kept as they are when they exist: the living feed's changes stay).
  if (config.providers.mls === 'demo') await seedDemoMls(db);

  if (config.DATABASE_POOLER === 'transaction') logger.info('database pooler: transaction mode (statements unnamed, job workers poll instead of LISTEN)');
  const queue = createQueue({ connectionString, db, logger, config, jobs: opts.jobs ?? jobs, work: config.JOBS_ENABLED });
  await queue.start();

  const app = createApp({ config, db, logger, queue, serveFrontends: true });
  let draining = false;
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  // While draining, every answer closes its connection: a client on keep-alive reconnects (to another process).
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  const metrics =
    config.METRICS_PORT === undefined
      ? null
      : await startMetricsServer({
          port: config.METRICS_PORT,
          host: config.METRICS_HOST,
          logger,
          sources: {
            db,
            queuePool: () => queue.poolStats(),
            getQueues: () => queue.boss.getQueues(),
            queues: (opts.jobs ?? jobs).map((j) => ({ name: j.name, deadLetter: j.options.deadLetter })),
          },
        });
  logger.info({ url, ms: Date.now() - t0 }, `ready on ${url}`);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      const grace = config.SHUTDOWN_GRACE_MS;
      logger.info({ graceMs: grace }, 'shutting down: no new connections; finishing the requests and jobs in flight');
      draining = true;
      // No new connections; idle keep-alive ones close now, busy ones after their answer. Workers stop taking
      // jobs at the same time, and their running jobs get the same grace (then they are failed, and retried).
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      const cutOff = setTimeout(() => {
        logger.warn({ graceMs: grace }, 'shutdown grace is over: closing the connections still busy');
        server.closeAllConnections();
      }, grace);
      const workers = queue.drain(grace).catch((err) => logger.error({ err }, 'stopping the job workers failed'));
      await Promise.all([closed, workers]);
      clearTimeout(cutOff);
      // Then, in order: the job queue's connections, the writes still held (the leads' group commit) with the
      // pools and the pipelined connections (db.destroy waits for them), and the database last.
      await queue.stop().catch((err) => logger.error({ err }, 'closing the job queue failed'));
      await metrics?.stop();
      await db.destroy();
      if (embedded) await embedded.stop();
      // The spans of the last seconds, before the process exits (nothing when tracing is off).
      await shutdownTracing().catch((err) => logger.error({ err }, 'tracing shutdown failed'));
      logger.info('stopped');
    })());
  return { server, url, db, queue, metrics, stop };
}

/** After the shutdown grace, how long closing the queue, the pools and the embedded database may take. */
const STOP_MARGIN_MS = 10_000;

/**
 * The process: SIGTERM, SIGINT and SIGHUP (once or many times, before or after it is ready) stop it in order and
 * exit 0. Started by `npm start` (scripts/start.mjs) it also stops when its parent goes away (the IPC channel
 * closes), so a killed parent never leaves it, or its embedded database, running.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  let stopRequested: string | null = null;
  // Installed before the start: a signal during it stops the process once it is up, instead of killing it
  // half-started (with its embedded database left running).
  const started = startServer(config, logger);
  const requestStop = (reason: string) => {
    if (stopRequested) {
      logger.info({ reason }, 'already stopping');
      return;
    }
    stopRequested = reason;
    logger.info({ reason }, 'stop requested');
    // A stop that cannot finish (the database gone first, so its connections never close, or a start still waiting
    // for it) still ends the process: an operator's SIGTERM is never ignored, and `npm start` never lingers.
    setTimeout(() => {
      logger.error({ reason, graceMs: config.SHUTDOWN_GRACE_MS, marginMs: STOP_MARGIN_MS }, 'shutdown took too long: exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + STOP_MARGIN_MS).unref();
    started
      .then((running) => running.stop())
      .then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'unclean shutdown');
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => requestStop(signal));
  if (process.connected) process.once('disconnect', () => requestStop('parent gone'));
  try {
    await started;
  } catch (err) {
    logger.fatal({ err }, 'could not start');
    process.exit(1);
  }
}

if (require.main === module) void main();

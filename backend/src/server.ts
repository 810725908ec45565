import http from 'node:http';
import { loadConfig, ConfigError, type Config } from './platform/config';
import { createLogger, type Logger } from './platform/logger';
import { startEmbeddedPostgres, ensureDatabase, type EmbeddedDatabase } from './platform/db/embedded';
import { createDb, migrateLatest, waitForSchema, type Db } from './platform/db/knex';
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
  const db = createDb(connectionString, { min: 2, max: 20 });
  if (config.MIGRATE_ON_START) {
    const applied = await migrateLatest(db);
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

  const queue = createQueue({ connectionString, db, logger, config, jobs: opts.jobs ?? jobs, work: config.JOBS_ENABLED });
  await queue.start();

  const app = createApp({ config, db, logger, queue, serveFrontends: true });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
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
      logger.info('shutting down: no new requests, finishing running jobs');
      // Stop accepting connections; idle keep-alive sockets are closed, in-flight requests finish.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(force);
      await queue.stop().catch((err) => logger.error({ err }, 'queue stop failed'));
      await metrics?.stop();
      await db.destroy();
      if (embedded) await embedded.stop();
      // The spans of the last seconds, before the process exits (nothing when tracing is off).
      await shutdownTracing().catch((err) => logger.error({ err }, 'tracing shutdown failed'));
      logger.info('stopped');
    })());
  return { server, url, db, queue, metrics, stop };
}

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
  let running: RunningServer;
  try {
    running = await startServer(config, logger);
  } catch (err) {
    logger.fatal({ err }, 'could not start');
    process.exit(1);
  }
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'unclean shutdown');
          process.exit(1);
        },
      );
    });
  }
}

if (require.main === module) void main();

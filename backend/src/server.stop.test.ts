/**
 * Stopping the product under load, as operators do it: `npm start` (the real start script, on its own ports and
 * DATA_DIR, embedded PostgreSQL included) gets Ctrl-C (SIGINT to its process group), SIGTERM to npm's process,
 * SIGTERM to the process group, or SIGINT to npm's process, while buyers keep sending leads. Each stop exits 0,
 * with no connection terminated under the server (57P01), no 5xx answered, the embedded database stopped, and
 * every lead answered 201 stored. Before: Ctrl-C reached PostgreSQL with the terminal's process group (57P01 under
 * the requests still running, exit 130), and SIGTERM to npm killed the shell between npm and the start script,
 * leaving the server running. The compiled server alone (the Docker image's command) and a start script killed
 * outright are covered too.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT } from './platform/config';
import { freePort, leadForm, leadFormTokens, pause, seedDemoAgents, startProcess, stopAll, type ProductProcess } from '../test/processes';

beforeAll(() => {
  // What `npm start` runs, up to date before the clock starts (its own build check then finds nothing to do).
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs')], { stdio: 'ignore' });
}, 900_000);
// A test that failed half-way leaves no process behind.
afterAll(stopAll);

interface Product extends ProductProcess {
  pgPort: number;
}

/** `npm start` (or the compiled server alone) in a process group of its own, as a terminal runs it. */
async function startProduct(dataDir: string, how: 'npm start' | 'server alone'): Promise<Product> {
  const port = await freePort();
  const pgPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(pgPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Each lead from its own client address (X-Forwarded-For), so the per-address limit stays out of the way.
    TRUST_PROXY: 'true',
    SHUTDOWN_GRACE_MS: '15000',
  };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const product =
    how === 'npm start'
      ? await startProcess({ env, port, detached: true, command: ['npm', 'start'] })
      : // Production asks for the public origin (npm start sets it to this server on localhost).
        await startProcess({ env: { ...env, NODE_ENV: 'production', PUBLIC_URL: `http://localhost:${port}` }, port, detached: true });
  return { ...product, pgPort };
}

/** The demo agents' listings and each one's lead-form token. */
async function seedListings(base: string): Promise<Map<string, string>> {
  const agents = await seedDemoAgents(base);
  return leadFormTokens(base, agents.flatMap((a) => a.listings.map((l) => l.mlsId)));
}

interface Load {
  /** Leads answered 201: their ids. */
  accepted: number[];
  /** Statuses of 5xx answers. */
  serverErrors: number[];
  stop: () => Promise<void>;
}

/** Ten buyers sending leads one after another (each a new form, from a new address) until stopped. */
function sendLeads(base: string, tokens: Map<string, string>, run: number): Load {
  const accepted: number[] = [];
  const serverErrors: number[] = [];
  const ids = [...tokens.keys()];
  let going = true;
  let n = 0;
  const buyers = Array.from({ length: 10 }, async () => {
    while (going) {
      n += 1;
      const mlsId = ids[n % ids.length];
      const form = leadForm(base, mlsId, tokens.get(mlsId)!, `10.${run}.${(n >> 8) & 255}.${n & 255}`);
      const res = await fetch(form.url, form.init).catch(() => null);
      // Refused connections once the server has stopped listening: the load balancer's cue to go elsewhere.
      if (!res) {
        await pause(20);
        continue;
      }
      const body = (await res.json().catch(() => null)) as { id: number } | null;
      if (res.status === 201 && body) accepted.push(body.id);
      else if (res.status >= 500) serverErrors.push(res.status);
    }
  });
  return {
    accepted,
    serverErrors,
    stop: async () => {
      going = false;
      await Promise.all(buyers);
    },
  };
}

async function storedLeadIds(dataDir: string, pgPort: number, ids: number[]): Promise<Set<number>> {
  const { password } = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  const client = new Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/listing_ads` });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('select id from leads where id = any($1::bigint[])', [ids]);
    return new Set(rows.map((r) => Number(r.id)));
  } finally {
    await client.end();
  }
}

function expectCleanStop(result: { code: number | null; signal: string | null }, output: string, dataDir: string, label: string) {
  expect({
    label,
    code: result.code,
    signal: result.signal,
    terminated: /57P01|administrator command|unclean shutdown|Connection terminated/.exec(output)?.[0] ?? null,
    // The embedded database stopped (its lock file is gone), with the server.
    databaseRunning: fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid')),
  }).toEqual({ label, code: 0, signal: null, terminated: null, databaseRunning: false });
}

const tempDataDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
};

describe('stopping the product under load', () => {
  it('npm start: Ctrl-C, SIGTERM to npm, SIGTERM to its group, SIGINT to npm: each exits 0, and every lead answered 201 is stored', async () => {
    const dataDir = tempDataDir('la-stop-npm-');
    const stops: { label: string; send: (npm: ChildProcess) => void }[] = [
      { label: 'Ctrl-C (SIGINT to the process group)', send: (npm) => process.kill(-npm.pid!, 'SIGINT') },
      { label: "SIGTERM to npm's process", send: (npm) => npm.kill('SIGTERM') },
      { label: 'SIGTERM to the process group', send: (npm) => process.kill(-npm.pid!, 'SIGTERM') },
      { label: "SIGINT to npm's process", send: (npm) => npm.kill('SIGINT') },
    ];
    let tokens: Map<string, string> | undefined;
    let unchecked: number[] = [];
    try {
      for (const [run, { label, send }] of stops.entries()) {
        const product = await startProduct(dataDir, 'npm start');
        // The leads the previous run answered 201 for, read from the database it left behind.
        if (unchecked.length) expect((await storedLeadIds(dataDir, product.pgPort, unchecked)).size).toBe(unchecked.length);
        if (!tokens) {
          tokens = await seedListings(product.base);
          // The time trap: a form is taken 3 s after its page was rendered.
          await pause(3100);
        }
        const load = sendLeads(product.base, tokens, run + 1);
        await pause(1500);
        send(product.child);
        const result = await product.exited;
        await load.stop();
        expectCleanStop(result, product.output(), dataDir, label);
        expect({ label, serverErrors: load.serverErrors }).toEqual({ label, serverErrors: [] });
        expect(load.accepted.length).toBeGreaterThan(10);
        unchecked = load.accepted;
      }
      const last = await startProduct(dataDir, 'npm start');
      expect((await storedLeadIds(dataDir, last.pgPort, unchecked)).size).toBe(unchecked.length);
      last.child.kill('SIGTERM');
      expectCleanStop(await last.exited, last.output(), dataDir, 'idle');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);

  it('the compiled server alone (the Docker image) exits 0 on SIGTERM under load', async () => {
    const dataDir = tempDataDir('la-stop-server-');
    try {
      const product = await startProduct(dataDir, 'server alone');
      const tokens = await seedListings(product.base);
      await pause(3100);
      const load = sendLeads(product.base, tokens, 9);
      await pause(1500);
      product.child.kill('SIGTERM');
      const result = await product.exited;
      await load.stop();
      expectCleanStop(result, product.output(), dataDir, 'server alone');
      expect(load.serverErrors).toEqual([]);
      const again = await startProduct(dataDir, 'server alone');
      expect((await storedLeadIds(dataDir, again.pgPort, load.accepted)).size).toBe(load.accepted.length);
      again.child.kill('SIGTERM');
      expectCleanStop(await again.exited, again.output(), dataDir, 'server alone, idle');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('the database gone first (its postmaster killed): the server does not crash, and SIGTERM still stops it', async () => {
    const dataDir = tempDataDir('la-stop-nodb-');
    try {
      const product = await startProduct(dataDir, 'server alone');
      const tokens = await seedListings(product.base);
      await pause(3100);
      const load = sendLeads(product.base, tokens, 11);
      await pause(1000);
      const postmaster = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(postmaster, 'SIGKILL');
      // Buyers keep sending for a while into the lost database: the server answers them, and stays up.
      await pause(2000);
      const aliveBeforeTheStop = product.child.exitCode === null && product.child.signalCode === null;
      product.child.kill('SIGTERM');
      // It exits by itself (an operator's SIGTERM is never ignored), after the stop was asked, without crashing on
      // the connections the database dropped (an unhandled 'error' event killed it before).
      const result = await product.exited;
      await load.stop();
      const output = product.output();
      expect({ aliveBeforeTheStop, signal: result.signal, exited: result.code === 0 || result.code === 1, crashed: /Unhandled 'error' event|uncaught/i.test(output) }).toEqual({
        aliveBeforeTheStop: true,
        signal: null,
        exited: true,
        crashed: false,
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('a start script killed outright (SIGKILL) still stops the server and its database', async () => {
    const dataDir = tempDataDir('la-stop-orphan-');
    try {
      const product = await startProduct(dataDir, 'npm start');
      // npm's child is the start script (the script `exec`s it): kill it, not npm, so npm reports it.
      const startScript = Number(execFileSync('pgrep', ['-P', String(product.child.pid), '-f', 'scripts/start.mjs'], { encoding: 'utf8' }).trim());
      process.kill(startScript, 'SIGKILL');
      await product.exited;
      // The server notices its parent is gone and stops in order: the database's lock file goes with it.
      for (let i = 0; i < 300 && fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid')); i++) await pause(100);
      expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
      expect(await fetch(`${product.base}/api/health`).then(() => 'answering', () => 'gone')).toBe('gone');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

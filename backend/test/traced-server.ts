/**
 * The compiled server (what `npm start` runs) in a child process, with tracing started by the test preload
 * (backend/test/otel-in-memory.mjs: the product's startTracing, exporting to memory). For the trace tests.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../src/platform/config';

export interface SpanDump {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  scope: string;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { SERVER: 1, CLIENT: 2, CONSUMER: 4 } as const;
export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-0123';

export interface TracedServer {
  origin: string;
  /** The JSON log lines the server wrote so far. */
  logLines: Record<string, unknown>[];
  /** Every span finished so far. */
  spans(): Promise<SpanDump[]>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Brings backend/dist up to date (the process under test is the compiled server). */
export function buildBackend(): void {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', path.join(REPO_ROOT, 'backend')], { stdio: 'ignore' });
}

export async function startTracedServer(env: Record<string, string>): Promise<TracedServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-traced-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', path.join(REPO_ROOT, 'backend', 'test', 'otel-in-memory.mjs'), path.join(REPO_ROOT, 'backend', 'dist', 'server.js')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: TEST_SESSION_SECRET,
      ENCRYPTION_KEY: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
      ADMIN_PASSWORD: 'correct horse battery staple',
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      JOBS_ENABLED: 'true',
      ...env,
    },
  });
  const logLines: Record<string, unknown>[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      try {
        logLines.push(JSON.parse(line));
      } catch {
        /* not a log line */
      }
    }
  });
  await until('the server to be ready', () => fetch(`${origin}/api/ready`).then((r) => r.ok, () => false), 60_000);
  return {
    origin,
    logLines,
    spans: () =>
      new Promise((resolve) => {
        const onMessage = (m: { type?: string; spans?: SpanDump[] }) => {
          if (m?.type !== 'spans') return;
          child.off('message', onMessage);
          resolve(m.spans!);
        };
        child.on('message', onMessage);
        child.send({ type: 'spans' });
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

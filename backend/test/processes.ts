/* The built product as separate processes, for the tests that stop, kill and scale it (the compiled server, as
 * `npm start` and the Docker image run it), and what those tests do through its API: the demo MLS agents and their
 * listings seeded as the wizard does it, and buyers' lead forms. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../src/platform/config';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every process started here and not yet exited: `stopAll` ends them (a test that failed half-way included). */
const running = new Set<ChildProcess>();

/** SIGTERM to every process started here that is still running; resolves once they have exited. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

export interface ProductProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/**
 * Runs `command` (the compiled server by default) and waits until `base` answers /api/ready. Its output (stdout and
 * stderr) is kept for the test to read. `detached`: in a process group of its own, as a terminal runs it.
 */
export async function startProcess(opts: { env: NodeJS.ProcessEnv; port: number; command?: [string, ...string[]]; detached?: boolean }): Promise<ProductProcess> {
  const [file, ...args] = opts.command ?? [process.execPath, path.join(REPO_ROOT, 'backend', 'dist', 'server.js')];
  const spawnOpts: SpawnOptions = { cwd: REPO_ROOT, env: opts.env, detached: opts.detached ?? false, stdio: ['ignore', 'pipe', 'pipe'] };
  const child = spawn(file, args, spawnOpts);
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const base = `http://127.0.0.1:${opts.port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/ready`).then((r) => r.ok, () => false)) break;
    if (i > 900 || child.exitCode !== null) throw new Error(`the product did not start:\n${output}`);
    await pause(100);
  }
  return { child, base, output: () => output, exited };
}

/** A browser's session on the product: JSON in and out, its cookie kept, any answer from 300 up an error. */
export function apiSession(base: string) {
  let cookie = '';
  return {
    async call<T = any>(method: string, pathname: string, body?: unknown): Promise<T> {
      const res = await fetch(`${base}${pathname}`, { method, headers: { 'content-type': 'application/json', origin: base, cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
      const set = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      if (set) cookie = set;
      return (await res.json()) as T;
    },
  };
}

export interface SeededAgent {
  id: number;
  session: ReturnType<typeof apiSession>;
  listings: { id: number; mlsId: string; imageUrl: string | null }[];
}

/** The demo MLS agents (Sarah Johnson, Michael Chen, Emily Rodriguez) and their listings, loaded as the wizard does. */
export async function seedDemoAgents(base: string): Promise<SeededAgent[]> {
  const agents: SeededAgent[] = [];
  for (const [name, state] of [['Sarah Johnson', 'FL'], ['Michael Chen', 'CA'], ['Emily Rodriguez', 'TX']]) {
    const session = apiSession(base);
    const found = await session.call('POST', '/api/mls/search-agent', { name, state });
    const agent = await session.call<{ id: number }>('POST', '/api/agents', found);
    await session.call('POST', '/api/mls/load', { agentId: agent.id, mlsId: found.mlsId });
    const page = await session.call<{ listings: SeededAgent['listings'] }>('GET', `/api/agents/${agent.id}/listings?limit=500`);
    agents.push({ id: agent.id, session, listings: page.listings });
  }
  return agents;
}

/** Each listing page's lead-form token, as the page renders it (a form is taken 3 s after that). */
export async function leadFormTokens(base: string, mlsIds: readonly string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (const mlsId of mlsIds) {
    const html = await (await fetch(`${base}/listing/${mlsId}`)).text();
    tokens.set(mlsId, JSON.parse(/<script type="application\/json" id="listing-page-data">([\s\S]*?)<\/script>/.exec(html)![1]).formToken);
  }
  return tokens;
}

/** A buyer's lead form for a listing, new (its own idempotency key), sent from `clientIp` (X-Forwarded-For, behind TRUST_PROXY). */
export function leadForm(base: string, mlsId: string, formToken: string, clientIp: string) {
  return {
    url: `${base}/api/listings/${mlsId}/leads`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, 'x-forwarded-for': clientIp },
      body: JSON.stringify({
        name: 'Test Buyer',
        email: 'buyer@example.com',
        message: 'Is it still available?',
        interestedInTour: false,
        formToken,
        idempotencyKey: crypto.randomBytes(12).toString('base64url'),
        consentVersion: 'tcpa-2026-11',
        pageUrl: `${base}/listing/${mlsId}`,
      }),
    },
  };
}

/* The built product as separate processes, for the tests that stop, kill and scale it (the compiled server, as
 * `npm start` and the Docker image run it), and what those tests do through its API: the demo MLS agents and their
 * listings seeded as the wizard does it, and buyers' lead forms. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from 'pg';
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

/**
 * A browser's session on the product: JSON in and out, its cookies kept as a browser keeps them (each by name: an
 * answer that sets only the session's version cookie keeps the session's), any answer from 300 up an error.
 */
export function apiSession(base: string) {
  const jar = new Map<string, string>();
  return {
    async call<T = any>(method: string, pathname: string, body?: unknown): Promise<T> {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const res = await fetch(`${base}${pathname}`, { method, headers: { 'content-type': 'application/json', origin: base, cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
      for (const set of res.headers.getSetCookie()) {
        const pair = set.split(';')[0];
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
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

/**
 * Signs each agent's wizard browser in as that agent, as opening the emailed sign-in link would leave it (the agent
 * verified, the session signed in), written to the database like factories' `signInWizard`: the routes of the
 * signed-in agent (notification settings) then answer it, once the processes' copies of the sessions are over
 * (at most 5 s: written past them, the change reaches no process's cache at once).
 */
export async function signInAgents(databaseUrl: string, agents: readonly SeededAgent[]): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const { id } of agents) {
      await client.query(`update agents set email = coalesce(email, $2), verified_at = now() where id = $1`, [id, `agent${id}@example.com`]);
      await client.query(
        `update sessions set data = data || jsonb_build_object('agentId', $1::int), updated_at = now() where data->'wizardAgentIds' @> to_jsonb($1::int)`,
        [id],
      );
    }
  } finally {
    await client.end();
  }
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

/**
 * A buyer's lead form for a listing, new (its own idempotency key) and from a buyer of its own (email and message:
 * the same buyer's same message again is the stored lead again), sent from `clientIp` (X-Forwarded-For, behind
 * TRUST_PROXY). `proof`: the answer to the challenge a guarded listing gave this form (`withProof`).
 */
export function leadForm(base: string, mlsId: string, formToken: string, clientIp: string) {
  const idempotencyKey = crypto.randomBytes(12).toString('base64url');
  return {
    url: `${base}/api/listings/${mlsId}/leads`,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, 'x-forwarded-for': clientIp },
      body: JSON.stringify({
        name: 'Test Buyer',
        email: `buyer-${idempotencyKey.toLowerCase()}@example.com`,
        message: `Is it still available? I would like a tour (${idempotencyKey}).`,
        interestedInTour: false,
        formToken,
        idempotencyKey,
        consentVersion: 'tcpa-2026-11',
        pageUrl: `${base}/listing/${mlsId}`,
      }),
    },
  };
}

/** The page script's search, in a thread of its own: the first solution whose SHA-256 starts with `difficulty` zero bits. */
const SOLVER = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
parentPort.on('message', ({ id, token, difficulty }) => {
  for (let i = 0; ; i++) {
    const solution = i.toString(36);
    const digest = crypto.createHash('sha256').update(token + ':' + solution).digest();
    let bits = 0;
    for (const byte of digest) {
      if (byte === 0) { bits += 8; continue; }
      bits += Math.clz32(byte) - 24;
      break;
    }
    if (bits >= difficulty) return parentPort.postMessage({ id, solution });
  }
});`;

/**
 * The buyers' proofs of work, as the page's script makes them, on a worker thread: a test that sends many forms
 * keeps its own event loop (its proxy, its webhook receiver) free while they are searched for. `withProof` answers
 * the same form with the proof of the challenge a guarded listing gave it (`challenge` in its 201).
 */
export function proofSolver() {
  const worker = new Worker(SOLVER, { eval: true });
  worker.unref();
  let next = 0;
  const waiting = new Map<number, (solution: string) => void>();
  worker.on('message', ({ id, solution }: { id: number; solution: string }) => {
    waiting.get(id)?.(solution);
    waiting.delete(id);
  });
  return {
    async withProof(form: ReturnType<typeof leadForm>, challenge: { token: string; difficulty: number }): Promise<ReturnType<typeof leadForm>> {
      const id = next++;
      const solution = await new Promise<string>((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage({ id, token: challenge.token, difficulty: challenge.difficulty });
      });
      return { ...form, init: { ...form.init, body: JSON.stringify({ ...JSON.parse(form.init.body), proof: { token: challenge.token, solution } }) } };
    },
    close: () => worker.terminate(),
  };
}

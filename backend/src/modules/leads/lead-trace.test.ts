/**
 * One trace from a buyer's lead to the agent's webhook: the compiled server (what `npm start` runs) with
 * tracing started by a preload, as backend/otel.mjs starts it, exporting to memory. The lead's POST, the
 * delivery job it enqueues (its trace context in the job's data) and the webhook call the job makes share one
 * trace id; the webhook request carries it on (traceparent), and the log lines written meanwhile name it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { REPO_ROOT } from '../../platform/config';
import { createTestDatabase } from '../../../test/helpers';
import { wizardBrowser } from '../../../test/factories';
import { LeadFormTokens } from './form-token';

interface SpanDump {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  scope: string;
  attributes: Record<string, unknown>;
}

const SESSION_SECRET = 'test-session-secret-that-is-long-enough-0123';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPAN_KIND = { SERVER: 1, CLIENT: 2, CONSUMER: 4 };

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let server: ChildProcess;
let origin: string;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  // The process under test is the compiled server: bring it up to date.
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', path.join(REPO_ROOT, 'backend')], { stdio: 'ignore' });
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-trace-test-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', path.join(REPO_ROOT, 'backend', 'test', 'otel-in-memory.mjs'), path.join(REPO_ROOT, 'backend', 'dist', 'server.js')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SESSION_SECRET,
      ENCRYPTION_KEY: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
      ADMIN_PASSWORD: 'correct horse battery staple',
      OUTBOUND_ALLOW_LOOPBACK: 'true',
      JOBS_ENABLED: 'true',
    },
  });
  let pending = '';
  server.stdout!.on('data', (chunk: Buffer) => {
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
}, 240_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function spans(): Promise<SpanDump[]> {
  return new Promise((resolve) => {
    const onMessage = (m: { type?: string; spans?: SpanDump[] }) => {
      if (m?.type !== 'spans') return;
      server.off('message', onMessage);
      resolve(m.spans!);
    };
    server.on('message', onMessage);
    server.send({ type: 'spans' });
  });
}

describe('tracing (OpenTelemetry, in-memory exporter)', () => {
  it("follows a lead from its POST through the delivery job to the agent's webhook", async () => {
    const received: http.IncomingHttpHeaders[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.headers);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
    try {
      const { session, agent, listing } = await wizardBrowser(supertest.agent(origin));
      await session.put(`/api/agents/${agent.id}/notification-settings`).send({ webhookUrl: hook, webhookSecret: SECRET, emailNotifications: false }).expect(200);
      const res = await supertest(origin)
        .post(`/api/listings/${listing.mlsId}/leads`)
        .send({
          name: 'Jordan Buyer',
          email: 'jordan@example.com',
          phone: '(813) 555-0100',
          message: 'Is it still available?',
          interestedInTour: true,
          interestedInSimilar: false,
          website: '',
          formToken: new LeadFormTokens(SESSION_SECRET).issue(listing.mlsId, Date.now() - 10_000),
          idempotencyKey: crypto.randomBytes(12).toString('base64url'),
          consentVersion: 'tcpa-2026-11',
          pageUrl: `https://homes.example.com/listing/${listing.mlsId}`,
        })
        .expect(201);
      const requestId = res.headers['x-request-id'];
      await until('the webhook call', () => received.length > 0);

      // The POST's server span (named by its route template) …
      const post = await until('the lead POST span', async () =>
        (await spans()).find((s) => s.kind === SPAN_KIND.SERVER && s.name === 'POST /api/listings/:mlsId/leads'),
      );
      // … the delivery job, the webhook call and the statements between, all in its trace.
      const trace = await until('the webhook call span', async () => {
        const all = (await spans()).filter((s) => s.traceId === post.traceId);
        return all.some((s) => s.kind === SPAN_KIND.CLIENT && s.scope.includes('undici')) && all;
      });
      const job = trace.find((s) => s.kind === SPAN_KIND.CONSUMER && s.name === 'process notifications.deliver');
      expect(job).toBeDefined();
      expect(job!.attributes).toMatchObject({ 'messaging.system': 'pg-boss', 'messaging.destination.name': 'notifications.deliver' });
      // The job's parent is a span of the POST's request (the context carried in the job's data).
      const requestSpans = new Set(trace.filter((s) => s.spanId !== job!.spanId).map((s) => s.spanId));
      expect(requestSpans.has(job!.parentSpanId!)).toBe(true);
      const call = trace.find((s) => s.kind === SPAN_KIND.CLIENT && s.scope.includes('undici'))!;
      expect(call.parentSpanId).toBe(job!.spanId);
      expect(call.attributes).toMatchObject({ 'http.request.method': 'POST', 'url.full': hook });
      // PostgreSQL statements are in the trace, without their parameter values.
      expect(trace.some((s) => s.scope.includes('pg') && s.kind === SPAN_KIND.CLIENT)).toBe(true);

      // The receiver got the trace context (W3C traceparent), so its own trace can continue this one.
      expect(received[0].traceparent).toMatch(new RegExp(`^00-${post.traceId}-${call.spanId}-0[01]$`));

      // Log lines carry the trace: the access line of the POST, and the delivery attempt's line.
      const access = logLines.find((l) => l.reqId === requestId && l.msg === 'request');
      expect(access).toMatchObject({ trace_id: post.traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
      const attempt = await until('the delivery log line', () => logLines.find((l) => l.msg === 'delivery attempt' && l.channel === 'webhook'));
      expect(attempt).toMatchObject({ trace_id: post.traceId });

      // Probes are not traced.
      await fetch(`${origin}/api/health`).then((r) => r.text());
      expect((await spans()).some((s) => s.attributes['url.path'] === '/api/health' || s.attributes['http.target'] === '/api/health')).toBe(false);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 120_000);
});

/**
 * One trace from a buyer's lead to the agent's webhook: the compiled server (what `npm start` runs) with
 * tracing started by a preload, as backend/otel.mjs starts it, exporting to memory. The lead's POST, the
 * delivery job it enqueues (its trace context in the job's data) and the webhook call the job makes share one
 * trace id; the webhook request carries it on (traceparent), and the log lines written meanwhile name it.
 */
import http from 'node:http';
import type net from 'node:net';
import supertest from 'supertest';
import { createTestDatabase } from '../../../test/helpers';
import { leadFormBody, listingBody, loggedInAgent } from '../../../test/factories';
import { createDb } from '../../platform/db/knex';
import { buildBackend, SPAN_KIND, startTracedServer, TEST_SESSION_SECRET, until, type TracedServer } from '../../../test/traced-server';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: TracedServer;
let origin: string;

beforeAll(async () => {
  buildBackend();
  database = await createTestDatabase();
  server = await startTracedServer({ DATABASE_URL: database.url });
  origin = server.origin;
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const spans = () => server.spans();

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
      // The settings are the signed-in agent's: the wizard's agent gets an account and this browser logs in
      // through the server (a session row written here could be answered from the server's session cache).
      const session = supertest.agent(origin);
      const db = createDb(database.url, { max: 1 });
      const { agent } = await loggedInAgent({ db }, session, { email: 'trace@example.com', password: 'sunny-porch-42' }).finally(() => db.destroy());
      const { body: listing } = await session.post('/api/listings').send(listingBody(agent.id)).expect(201);
      await session.put(`/api/agents/${agent.id}/notification-settings`).send({ webhookUrl: hook, webhookSecret: SECRET, emailNotifications: false }).expect(200);
      const res = await supertest(origin)
        .post(`/api/listings/${listing.mlsId}/leads`)
        .send(leadFormBody(TEST_SESSION_SECRET, listing.mlsId, { consentVersion: 'tcpa-2026-11', pageUrl: `https://homes.example.com/listing/${listing.mlsId}` }))
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
        // The job's span ends last (after the attempt is recorded): wait for it too.
        return all.some((s) => s.kind === SPAN_KIND.CLIENT && s.scope.includes('undici')) && all.some((s) => s.kind === SPAN_KIND.CONSUMER) && all;
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
      const access = server.logLines.find((l) => l.reqId === requestId && l.msg === 'request');
      expect(access).toMatchObject({ trace_id: post.traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
      const attempt = await until('the delivery log line', () => server.logLines.find((l) => l.msg === 'delivery attempt' && l.channel === 'webhook'));
      expect(attempt).toMatchObject({ trace_id: post.traceId });

      // Probes are not traced.
      await fetch(`${origin}/api/health`).then((r) => r.text());
      expect((await spans()).some((s) => s.attributes['url.path'] === '/api/health' || s.attributes['http.target'] === '/api/health')).toBe(false);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 120_000);
});

/**
 * One trace from a payment to the ad platform: the compiled server with tracing (in-memory exporter) and Meta
 * pointed at the fake Graph server. The local payment's confirm POST moves the campaign to paid and sends
 * campaigns.launch in its transaction; the launch job runs in that trace, and so do its Graph calls.
 */
import supertest from 'supertest';
import { createTestDatabase } from '../../../../test/helpers';
import { campaignDraftBody, wizardBrowser } from '../../../../test/factories';
import { buildBackend, SPAN_KIND, startTracedServer, until, type TracedServer } from '../../../../test/traced-server';
import { startFakeGraph, type FakeGraph } from '../testing/fake-graph-server';
import { META_TEST_ENV } from '../testing/meta-graph-shapes';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let graph: FakeGraph;
let server: TracedServer;

beforeAll(async () => {
  buildBackend();
  database = await createTestDatabase();
  graph = await startFakeGraph();
  server = await startTracedServer({ DATABASE_URL: database.url, META_GRAPH_URL: graph.url, ...META_TEST_ENV });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await graph?.close();
  await database?.drop();
});

describe('tracing (OpenTelemetry, in-memory exporter)', () => {
  it('follows a payment through the launch job to the Graph API calls', async () => {
    const { session, agent, listing } = await wizardBrowser(supertest.agent(server.origin));
    const { body: campaign } = await session
      .post('/api/campaigns')
      // A demo MLS photo: the launch uploads it to Meta from the app's own files (no network here).
      .send(campaignDraftBody(agent.id, listing.id, { imageUrl: '/demo-mls/photos/exterior-01.jpg' }))
      .expect(201);
    const intent = await session.post('/api/create-payment-intent').send({ amount: 399, campaignId: campaign.id }).expect(200);
    await session
      .post('/api/payments/local/confirm')
      .send({ clientSecret: intent.body.clientSecret, cardNumber: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' })
      .expect(200);
    await until('the ad on the fake Graph API', () => graph.posts.ads > 0, 30_000);

    const confirm = await until('the confirm POST span', async () => (await server.spans()).find((s) => s.kind === SPAN_KIND.SERVER && s.name === 'POST /api/payments/local/confirm'));
    const trace = await until('the launch and its Graph calls', async () => {
      const all = (await server.spans()).filter((s) => s.traceId === confirm.traceId);
      const graphCalls = all.filter((s) => s.kind === SPAN_KIND.CLIENT && s.scope.includes('undici') && String(s.attributes['url.full']).startsWith(graph.url));
      return graphCalls.length >= 4 && all.some((s) => s.kind === SPAN_KIND.CONSUMER && s.name === 'process campaigns.launch') && all;
    });
    const launch = trace.find((s) => s.kind === SPAN_KIND.CONSUMER && s.name === 'process campaigns.launch');
    expect(launch).toBeDefined();
    // The launch job's parent is a span of the payment's request, and the Graph calls are under the job.
    expect(trace.some((s) => s.spanId === launch!.parentSpanId && s.spanId !== launch!.spanId)).toBe(true);
    const graphCalls = trace.filter((s) => s.kind === SPAN_KIND.CLIENT && s.scope.includes('undici') && String(s.attributes['url.full']).startsWith(graph.url));
    const edges = graphCalls.map((s) => new URL(String(s.attributes['url.full'])).pathname.split('/').pop());
    expect(edges).toEqual(expect.arrayContaining(['campaigns', 'adsets', 'adcreatives', 'ads']));
    for (const call of graphCalls) expect(call.parentSpanId).toBe(launch!.spanId);
    // The access token is never part of a span (Graph calls send it in the body or the Authorization header).
    expect(JSON.stringify(trace)).not.toContain(META_TEST_ENV.META_ACCESS_TOKEN);
  }, 120_000);
});

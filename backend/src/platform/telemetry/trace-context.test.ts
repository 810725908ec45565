/**
 * Trace context through the job queue, in process: a span is active when a job is sent (alone, in a
 * transaction, or in a batch with a context per job), and the job's handler runs in a span of that trace.
 * (The whole path with the instrumentations, from a lead's POST to the webhook, is lead-trace.test.ts.)
 */
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { z } from 'zod';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { defineJob } from '../jobs/job';
import { currentTraceCarrier, enableTraceContext, TRACE_KEY } from './trace-context';

const seen: { n: number; traceId: string | undefined; data: unknown }[] = [];
const tracedJob = defineJob({
  name: 'test.traced',
  // strict: the carried context must never reach the payload schema.
  payload: z.object({ n: z.number().int() }).strict(),
  options: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30 },
  async handler({ n }) {
    seen.push({ n, traceId: api.trace.getActiveSpan()?.spanContext().traceId, data: { n } });
  },
});

const exporter = new InMemorySpanExporter();
let t: TestContext;
beforeAll(async () => {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  t = await createTestContext({ work: true, jobs: [tracedJob] });
});
afterAll(async () => {
  await t.close();
  api.trace.disable();
  api.context.disable();
  api.propagation.disable();
});

const until = async <T>(check: () => T | undefined) => {
  for (let i = 0; i < 300; i++) {
    const v = check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};

describe('trace context through jobs', () => {
  it('is nothing while tracing is off: no carrier, the job data as it was', async () => {
    expect(currentTraceCarrier()).toBeUndefined();
    const id = await t.queue.send(tracedJob, { n: 0 });
    const job = await t.queue.boss.getJobById(tracedJob.name, id!);
    expect(job!.data).toEqual({ n: 0 });
    await until(() => seen.find((s) => s.n === 0));
  });

  it("runs each job in a span of its sender's trace, for send, a send in a transaction, and a batch with a context per job", async () => {
    enableTraceContext(api);
    const tracer = api.trace.getTracer('test');
    const a = tracer.startSpan('request a');
    const b = tracer.startSpan('request b');
    const inSpan = <T>(span: api.Span, fn: () => Promise<T>) => api.context.with(api.trace.setSpan(api.context.active(), span), fn);

    const id = await inSpan(a, () => t.queue.send(tracedJob, { n: 1 }));
    const stored = await t.queue.boss.getJobById(tracedJob.name, id!);
    expect(stored!.data).toEqual({ n: 1, [TRACE_KEY]: { traceparent: expect.stringContaining(a.spanContext().traceId) } });
    await inSpan(b, () => t.db.transaction((trx) => t.queue.send(tracedJob, { n: 2 }, { trx })));
    // A batch sent in a's context, with b's context given for one of its jobs (a group commit's leads).
    const carrierOfB = inSpan(b, async () => currentTraceCarrier());
    await inSpan(a, async () => t.queue.sendMany(tracedJob, [{ n: 3 }, { n: 4 }], { traces: [undefined, await carrierOfB] }));

    const ran = await until(() => (seen.filter((s) => s.n > 0).length === 4 ? seen.filter((s) => s.n > 0).sort((x, y) => x.n - y.n) : undefined));
    expect(ran.map((s) => [s.n, s.traceId])).toEqual([
      [1, a.spanContext().traceId],
      [2, b.spanContext().traceId],
      [3, a.spanContext().traceId],
      [4, b.spanContext().traceId],
    ]);
    const consumer = exporter.getFinishedSpans().filter((s) => s.name === 'process test.traced' && s.spanContext().traceId === a.spanContext().traceId);
    expect(consumer.length).toBe(2);
    expect(consumer[0].kind).toBe(api.SpanKind.CONSUMER);
    expect(consumer[0].parentSpanContext?.spanId).toBe(a.spanContext().spanId);
    a.end();
    b.end();
  });
});

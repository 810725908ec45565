// A test preload (`node --import backend/test/otel-in-memory.mjs backend/dist/server.js`): tracing started as
// backend/otel.mjs starts it, with an in-memory exporter instead of OTLP. The parent process asks for the
// finished spans over IPC ({ type: 'spans' }) and gets them back as plain objects.
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';

const { startTracing } = await import('../dist/platform/telemetry/tracing.js');
const exporter = new InMemorySpanExporter();
startTracing({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

process.on('message', (message) => {
  if (message?.type !== 'spans') return;
  const spans = exporter.getFinishedSpans().map((s) => ({
    name: s.name,
    kind: s.kind,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId ?? null,
    scope: s.instrumentationScope.name,
    attributes: s.attributes,
  }));
  process.send?.({ type: 'spans', spans });
});

import * as api from '@opentelemetry/api';
import { startNodeSdk } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation, KoaLayerType } from '@opentelemetry/instrumentation-koa';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { enableTraceContext } from './trace-context';

/** Probes and the metrics listener: every few seconds, and of no interest in a trace. */
const UNTRACED_PATHS = new Set(['/api/health', '/api/ready', '/metrics']);

/**
 * OpenTelemetry tracing for this process: loaded by backend/otel.mjs (`node --import`) before the app, so the
 * instrumentations hook the modules as they are first required, and only when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set. The exporter, its protocol, sampling and the resource come from the standard OTEL_* variables
 * (OTLP over HTTP/protobuf by default); `spanProcessors` replaces the exporter (tests: an in-memory one).
 *
 * Traced: incoming HTTP (with Koa's route templates as span names), PostgreSQL statements made inside a
 * traced request or job (node-postgres: knex, the pipelined connections, pg-boss; statement text without
 * parameter values), outgoing HTTP through undici and fetch (webhooks, Graph, Stripe, RESO) with
 * `traceparent` sent on, and jobs (platform/jobs/queue.ts: the sender's context travels in the job's data).
 * Log lines written inside a span carry its trace_id and span_id (pino). Metrics stay with Prometheus
 * (platform/metrics) and logs on stdout: the SDK exports traces only.
 */
export function startTracing(opts: { spanProcessors?: SpanProcessor[] } = {}): { shutdown(): Promise<void> } {
  const named = process.env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(process.env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = startNodeSdk({
    resourceAttributes: named ? {} : { 'service.name': 'listing-ads' },
    spanProcessors: opts.spanProcessors,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
      }),
      // Route spans only: one span per app.use() middleware would be a dozen spans of no interest per request.
      new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
      // Statements outside a traced request or job (pg-boss's polling, the pool's keep-alive) start no trace.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new UndiciInstrumentation(),
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  enableTraceContext(api, () => sdk.shutdown());
  return sdk;
}

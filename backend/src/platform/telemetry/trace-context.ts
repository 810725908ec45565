import type * as OtelApi from '@opentelemetry/api';

/**
 * Trace context across the job queue, and nothing when tracing is off. The OpenTelemetry API is handed in by
 * `startTracing` (platform/telemetry/tracing.ts, loaded by backend/otel.mjs only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set): until then every function here is a no-op and no OpenTelemetry code is
 * loaded (the import above is types only).
 *
 * pg-boss 12.35 carries no trace context of its own (12.38 adds it, and cannot be installed here): a job's
 * data carries its sender's context under TRACE_KEY (W3C traceparent/tracestate), and the worker runs the
 * job in a span whose parent is that context, so one trace runs from the request through the job to the
 * calls it makes.
 */
let api: typeof OtelApi | undefined;
let shutdown: (() => Promise<void>) | undefined;

/** The job data key of the sender's trace context. Payload schemas never see it (removed before parsing). */
export const TRACE_KEY = '_trace';

/** W3C trace context headers (traceparent, tracestate), as text. */
export type TraceCarrier = Record<string, string>;

export function enableTraceContext(otel: typeof OtelApi, sdkShutdown?: () => Promise<void>): void {
  api = otel;
  shutdown = sdkShutdown;
}

/** Sends the spans not yet exported and stops tracing (the server's stop, before the process exits). */
export async function shutdownTracing(): Promise<void> {
  const end = shutdown;
  shutdown = undefined;
  await end?.();
}

export function tracingEnabled(): boolean {
  return api !== undefined;
}

/** The current trace context, to carry to work that runs later or elsewhere; undefined when tracing is off or no span is active. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  if (!api) return undefined;
  const carrier: TraceCarrier = {};
  api.propagation.inject(api.context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** Job data with a trace context to carry; the data itself when there is none. */
export function withTraceContext<T extends object>(data: T, carrier: TraceCarrier | undefined): T {
  return carrier ? { ...data, [TRACE_KEY]: carrier } : data;
}

/** The carrier a job's data holds, if any. */
export function traceCarrierOf(data: unknown): TraceCarrier | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const carrier = (data as Record<string, unknown>)[TRACE_KEY];
  if (!carrier || typeof carrier !== 'object') return undefined;
  const { traceparent, tracestate } = carrier as Record<string, unknown>;
  if (typeof traceparent !== 'string') return undefined;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

/** A job's span, opened before its work and ended after it settled (a batch handler settles many jobs at once). */
export interface JobSpan {
  /** Runs `work` with this span active (its outbound calls, statements and log lines join the job's trace). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Ends the span: failed with `failure`'s message when given. */
  end(failure?: unknown): void;
}

const NO_SPAN: JobSpan = { run: (work) => work(), end: () => undefined };

/**
 * A job's CONSUMER span (messaging conventions, as pg-boss 12.38's own spans), child of the context its sender
 * carried; a job sent with none (a schedule, a redrive) starts a trace of its own. Tracing off: nothing.
 */
export function openJobSpan(job: { queue: string; id: string; retryCount: number; data: unknown }): JobSpan {
  const otel = api;
  if (!otel) return NO_SPAN;
  const carrier = traceCarrierOf(job.data);
  const parent = carrier ? otel.propagation.extract(otel.ROOT_CONTEXT, carrier) : otel.ROOT_CONTEXT;
  const span = otel.trace.getTracer('listing-ads.jobs').startSpan(
    `process ${job.queue}`,
    {
      kind: otel.SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'pg-boss',
        'messaging.operation.name': 'process',
        'messaging.operation.type': 'process',
        'messaging.destination.name': job.queue,
        'messaging.message.id': job.id,
        'pgboss.job.retry_count': job.retryCount,
      },
    },
    parent,
  );
  const context = otel.trace.setSpan(parent, span);
  return {
    run: (work) => otel.context.with(context, work),
    end(failure) {
      if (failure !== undefined) {
        if (failure instanceof Error) span.recordException(failure);
        span.setStatus({ code: otel.SpanStatusCode.ERROR, message: failure instanceof Error ? failure.message : String(failure) });
      }
      span.end();
    },
  };
}

/** Runs a job's handler in its span (`openJobSpan`). */
export async function runJobInSpan<T>(job: { queue: string; id: string; retryCount: number; data: unknown }, work: () => Promise<T>): Promise<T> {
  const span = openJobSpan(job);
  let result: T;
  try {
    result = await span.run(work);
  } catch (err) {
    span.end(err);
    throw err;
  }
  span.end();
  return result;
}

/** Marks the active span (a job's) as failed without an exception: a job that reports failure as its result. */
export function markActiveSpanFailed(message: string): void {
  if (!api) return;
  api.trace.getActiveSpan()?.setStatus({ code: api.SpanStatusCode.ERROR, message });
}

import client from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client): one registry, served by the metrics listener
 * (platform/metrics/metrics-server.ts) on METRICS_PORT, never on the public port. Every series here has
 * bounded labels: route templates, never paths or ids; fixed sets of channels, outcomes and limiter names.
 *
 * The instruments below count whether or not the listener runs (an increment is a map lookup); the HTTP
 * middleware, the default Node.js metrics and the pool and queue collectors exist only with METRICS_PORT.
 *
 * This file is the one place the product's own series are named: modules record outcomes through the
 * functions at the bottom, and other platform code (the job workers, the database pools) reads or feeds
 * the same instruments from here.
 */
export const registry = new client.Registry();

/** Seconds: from a fast read (a few ms) to the outbound calls' timeouts. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// ---- RED per route (platform/metrics/http-metrics.ts)
/**
 * One route's requests of one method and status class. The middleware adds to these plain numbers (a request
 * costs a few additions); the registry reads them at scrape time. prom-client's own Counter.inc and
 * Histogram.observe validate and hash the labels on every call: about 4 µs a request here, which the
 * cheapest reads notice.
 */
export class RouteSeries {
  requests = 0;
  seconds = 0;
  /** Requests per bucket of LATENCY_BUCKETS (not cumulative), the last one past the largest bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  constructor(readonly labels: { route: string; method: string; status_class: string }) {}

  record(seconds: number): void {
    this.requests += 1;
    this.seconds += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++;
    this.buckets[i] += 1;
  }
}

/** Every route series of this process, by `route \0 method \0 status_class` (a bounded set: see http-metrics.ts). */
export const routeSeries = new Map<string, RouteSeries>();
/** Emptied by a reset of the registry (tests): every RouteSeries an outside table remembers is then dropped. */
export const routeSeriesResets = { count: 0 };

const REQUESTS = 'listing_ads_http_requests_total';
const DURATION = 'listing_ads_http_request_duration_seconds';
const REQUESTS_HELP = 'HTTP requests answered, by route template, method and status class';
const DURATION_HELP = 'Time from a request reaching the app to its answer, by route template, method and status class';
// Registered as prom-client metrics that read routeSeries when scraped (the registry asks each metric's get()).
registry.registerMetric({
  name: REQUESTS,
  help: REQUESTS_HELP,
  type: 'counter',
  aggregator: 'sum',
  get: async () => ({
    name: REQUESTS,
    help: REQUESTS_HELP,
    type: 'counter',
    aggregator: 'sum',
    values: [...routeSeries.values()].map((s) => ({ labels: s.labels, value: s.requests })),
  }),
  reset: () => (routeSeries.clear(), routeSeriesResets.count++),
} as unknown as client.Metric);
registry.registerMetric({
  name: DURATION,
  help: DURATION_HELP,
  type: 'histogram',
  aggregator: 'sum',
  get: async () => ({
    name: DURATION,
    help: DURATION_HELP,
    type: 'histogram',
    aggregator: 'sum',
    values: [...routeSeries.values()].flatMap((s) => {
      let cumulative = 0;
      const buckets = LATENCY_BUCKETS.map((le, i) => {
        cumulative += s.buckets[i];
        return { metricName: `${DURATION}_bucket`, labels: { ...s.labels, le }, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: `${DURATION}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.requests },
        { metricName: `${DURATION}_sum`, labels: s.labels, value: s.seconds },
        { metricName: `${DURATION}_count`, labels: s.labels, value: s.requests },
      ];
    }),
  }),
  reset: () => (routeSeries.clear(), routeSeriesResets.count++),
} as unknown as client.Metric);

// ---- Outcomes
const deliveryAttempts = new client.Counter({
  name: 'listing_ads_delivery_attempts_total',
  help: 'Lead and notification delivery attempts, by channel (email, webhook, zapier, crm), message kind and outcome (succeeded, failed: retried later, dead, disabled: 410 Gone)',
  labelNames: ['channel', 'kind', 'outcome'] as const,
  registers: [registry],
});
const launchAttempts = new client.Counter({
  name: 'listing_ads_campaign_launch_attempts_total',
  help: 'Campaign launch attempts on the ad platform, by provider and outcome (active, retrying, failed)',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});
const launchLatency = new client.Histogram({
  name: 'listing_ads_campaign_launch_seconds',
  help: 'From the payment (the campaign turning paid) to the campaign active on the ad platform, retries included',
  labelNames: ['provider'] as const,
  buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900],
  registers: [registry],
});
const rateLimitRefusals = new client.Counter({
  name: 'listing_ads_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit (429), by limiter name',
  labelNames: ['limiter'] as const,
  registers: [registry],
});
const jobRuns = new client.Counter({
  name: 'listing_ads_job_runs_total',
  help: 'Background job runs in this process, by queue and outcome (completed, failed: pg-boss retries it, dead_lettered)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});
const jobDuration = new client.Histogram({
  name: 'listing_ads_job_duration_seconds',
  help: 'Time a job handler ran, by queue',
  labelNames: ['queue'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});
// Later outcomes get their instruments here, beside these, and a record function below:
//  - autopilot runs (modules/autopilot, DESIGN §7): listing_ads_autopilot_runs_total{outcome: drafted, vetoed,
//    charged, launched, skipped};
//  - settlement runs (modules/reports): listing_ads_settlement_runs_total{outcome}, and the credits issued in
//    cents as listing_ads_settlement_credits_cents_total.
// Label them by a fixed set of outcomes, never by an agent, campaign or listing.

export type DeliveryOutcome = 'succeeded' | 'failed' | 'dead' | 'disabled';
export type LaunchOutcome = 'active' | 'retrying' | 'failed';
export type JobOutcome = 'completed' | 'failed' | 'dead_lettered';

/** One delivery attempt made (notifications: after its row is written). */
export function recordDeliveryAttempt(channel: string, kind: string, outcome: DeliveryOutcome): void {
  deliveryAttempts.inc({ channel, kind, outcome });
}

/** One launch attempt ended; `paidSecondsAgo` when the campaign became active: the payment-to-active latency. */
export function recordLaunchAttempt(provider: string, outcome: LaunchOutcome, paidSecondsAgo?: number): void {
  launchAttempts.inc({ provider, outcome });
  if (paidSecondsAgo !== undefined) launchLatency.observe({ provider }, paidSecondsAgo);
}

/** A request refused by the named limit. */
export function recordRateLimitRefusal(limiter: string): void {
  rateLimitRefusals.inc({ limiter });
}

/** A job handler finished (platform/jobs/queue.ts). */
export function recordJobRun(queue: string, outcome: JobOutcome, seconds: number): void {
  jobRuns.inc({ queue, outcome });
  jobDuration.observe({ queue }, seconds);
}

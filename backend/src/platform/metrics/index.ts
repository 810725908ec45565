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
export const httpRequests = new client.Counter({
  name: 'listing_ads_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status class',
  labelNames: ['route', 'method', 'status_class'] as const,
  registers: [registry],
});
export const httpDuration = new client.Histogram({
  name: 'listing_ads_http_request_duration_seconds',
  help: 'Time from a request reaching the app to its answer, by route template, method and status class',
  labelNames: ['route', 'method', 'status_class'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

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

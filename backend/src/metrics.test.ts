/**
 * The metrics as an operator scrapes them: the real server with METRICS_PORT, /metrics on that port only,
 * RED series per route template that move with traffic, and label sets that stay bounded whatever ids the
 * requests carry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from './server';
import { loadConfig } from './platform/config';
import { createLogger } from './platform/logger';
import { createTestDatabase } from '../test/helpers';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let running: RunningServer;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-metrics-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    METRICS_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JOBS_ENABLED: 'false',
  });
  running = await startServer(config, createLogger('silent'));
}, 60_000);

afterAll(async () => {
  await running?.stop();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function scrape(): Promise<string> {
  const res = await fetch(running.metrics!.url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series (exact label text), 0 when absent. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The series (label sets) of the metrics whose names start with `prefix`. */
const seriesOf = (text: string, prefix: string) => text.split('\n').filter((l) => l.startsWith(prefix) && l.includes('{'));

/** `count` GETs, 25 at a time. */
async function hammer(urls: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < urls.length; i += 25) {
    statuses.push(...(await Promise.all(urls.slice(i, i + 25).map((u) => fetch(u).then(async (r) => (await r.arrayBuffer(), r.status))))));
  }
  return statuses;
}

describe('metrics', () => {
  it('are served at /metrics on METRICS_PORT, never on the public port', async () => {
    // (The built frontends are served here: without its own guard, /metrics would be the app shell.)
    const publicAnswer = await fetch(`${running.url}/metrics`, { headers: { accept: 'text/html,*/*' } });
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.json()).toMatchObject({ code: 'platform.not_found' });
    const other = await fetch(new URL('/', running.metrics!.url));
    expect(other.status).toBe(404);
    await other.arrayBuffer();
    expect(new URL(running.metrics!.url).port).not.toBe(new URL(running.url).port);

    const text = await scrape();
    // The process, its pools and the job queues, besides the HTTP series.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/^listing_ads_db_pool_connections\{pool="knex",state="in_use"\} \d+$/m);
    expect(text).toMatch(/^listing_ads_db_pool_connections\{pool="pg-boss",state="idle"\} \d+$/m);
    expect(text).toMatch(/^listing_ads_db_pool_waiting\{pool="pipelined-counts"\} \d+$/m);
    expect(text).toMatch(/^listing_ads_job_queue_jobs\{queue="notifications.deliver",state="queued"\} \d+$/m);
    expect(text).toMatch(/^listing_ads_job_queue_jobs\{queue="campaigns.launch",state="dead_lettered"\} \d+$/m);
    expect(text).toMatch(/^listing_ads_job_queue_snapshot_age_seconds \d/m);
  });

  it('count requests per route template, method and status class, and time them', async () => {
    const series = 'listing_ads_http_requests_total{route="/api/campaigns/:id",method="GET",status_class="4xx"}';
    const durations = 'listing_ads_http_request_duration_seconds_count{route="/api/campaigns/:id",method="GET",status_class="4xx"}';
    const before = await scrape();
    const statuses = await hammer([1, 2, 3].map((id) => `${running.url}/api/campaigns/${id}`));
    expect(statuses.every((s) => s >= 400 && s < 500)).toBe(true);
    const after = await scrape();
    expect(valueOf(after, series) - valueOf(before, series)).toBe(3);
    expect(valueOf(after, durations) - valueOf(before, durations)).toBe(3);
    // A histogram as Prometheus reads it: cumulative buckets, +Inf equal to the count, a sum of seconds.
    const labels = 'route="/api/campaigns/:id",method="GET",status_class="4xx"';
    const buckets = after.split('\n').filter((l) => l.startsWith(`listing_ads_http_request_duration_seconds_bucket{${labels},le=`)).map((l) => Number(l.split(' ').pop()));
    expect(buckets).toHaveLength(12);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(buckets[11]).toBe(valueOf(after, durations));
    expect(valueOf(after, `listing_ads_http_request_duration_seconds_sum{${labels}}`)).toBeGreaterThan(0);
    // No series is labelled with a path or an id.
    expect(seriesOf(after, 'listing_ads_http_').filter((l) => /route="[^"]*\/\d/.test(l))).toEqual([]);

    const health = 'listing_ads_http_requests_total{route="/api/health",method="GET",status_class="2xx"}';
    await hammer([`${running.url}/api/health`, `${running.url}/api/health`]);
    expect(valueOf(await scrape(), health) - valueOf(after, health)).toBe(2);
  });

  it('keep their label sets fixed after 1,000 requests to 1,000 different ids', async () => {
    const kinds = [
      (i: number) => `${running.url}/api/campaigns/${i}`,
      (i: number) => `${running.url}/api/agents/${i}/listings`,
      (i: number) => `${running.url}/listing/FL${i}`,
      (i: number) => `${running.url}/no/such/page/${i}`,
      (i: number) => `${running.url}/assets/missing-${i}.js`,
    ];
    // Every kind once, so each of its label sets exists.
    await hammer(kinds.map((k) => k(1_000_000)));
    const before = await scrape();
    const seriesBefore = seriesOf(before, 'listing_ads_');
    const requestsBefore = seriesOf(before, 'listing_ads_http_requests_total').reduce((n, l) => n + Number(l.split(' ').pop()), 0);

    await hammer(Array.from({ length: 1000 }, (_, i) => kinds[i % kinds.length](i + 1)));
    const after = await scrape();
    const requestsAfter = seriesOf(after, 'listing_ads_http_requests_total').reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    expect(requestsAfter - requestsBefore).toBe(1000);
    const labelSets = (lines: string[]) => lines.map((l) => l.slice(0, l.lastIndexOf(' '))).sort();
    expect(labelSets(seriesOf(after, 'listing_ads_'))).toEqual(labelSets(seriesBefore));
    // The unmatched requests fell into the fixed labels.
    expect(after).toMatch(/^listing_ads_http_requests_total\{route="\(not found\)",method="GET",status_class="4xx"\} \d+$/m);
    // (404 for an unknown listing once the page renderer is built; the label is the template either way.)
    expect(after).toMatch(/^listing_ads_http_requests_total\{route="\/listing\/:mlsId",method="GET",status_class="\dxx"\} \d+$/m);
  }, 60_000);
});

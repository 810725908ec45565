// Shared helpers for the benchmark scripts.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const requireHere = createRequire(import.meta.url);

/** A module of the built backend (backend/dist, after buildBackend): backendDist('platform/db/knex.js') or backendDist('platform', 'db', 'knex.js'). */
export const backendDist = (...p) => requireHere(path.join(root, 'backend', 'dist', ...p));

/** A realistic delivered lead (LeadDelivery) number `i`, as the worker's emails and webhooks carry it. */
export const sampleLeadDelivery = (i) => ({
  agentId: 3,
  lead: { id: i, name: 'Jamie Buyer', email: `jamie${i}@buyer.example`, phone: '813-555-0101', message: 'Is it still available? We would love a tour this weekend, Saturday morning if you can.', source: 'web', interestedInTour: true, interestedInSimilar: false, createdAt: new Date().toISOString() },
  listing: { id: i, mlsId: `T-${i}`, address: `${i} Palm Ave`, city: 'Tampa', state: 'FL', postalCode: '33602', price: '450000', bedrooms: 3, bathrooms: 2, squareFeet: 1850, imageUrl: `https://homes.example.com/uploads/${i}.jpg`, url: `https://homes.example.com/listing/T-${i}` },
});

/** `--name N` on the command line, as a number; `fallback` when it is not there. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** A throw-away embedded PostgreSQL (the product's own) on a free port, its data in `dataDir`. */
export async function startBenchPostgres(dataDir, logger) {
  const { startEmbeddedPostgres } = backendDist('platform/db/embedded.js');
  return startEmbeddedPostgres({ dataDir, port: await freePort(), logger, ephemeral: true });
}

/** Database `name` on `pg` (startBenchPostgres), created if missing and migrated: its URL and a knex on it. */
export async function openBenchDatabase(pg, name, poolOptions) {
  const { ensureDatabase } = backendDist('platform/db/embedded.js');
  const { createDb, migrateLatest } = backendDist('platform/db/knex.js');
  await ensureDatabase(pg.connectionString('postgres'), name);
  const url = pg.connectionString(name);
  const db = createDb(url, poolOptions);
  await migrateLatest(db);
  return { url, db };
}

export function buildBackend() {
  const res = spawnSync('npx', ['tsc', '-b', 'backend'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('backend build failed');
}

/** What every browser sends with a read: the answers over 1 KB come back compressed. */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

/**
 * A read as browsers send it (Accept-Encoding: gzip, deflate, br) and the same read asking for no compression,
 * as two targets of `compareReads`.
 */
export function asBrowsersAndPlain(target) {
  return [
    { ...target, name: `${target.name}, browser headers`, headers: { ...BROWSER_HEADERS, ...target.headers } },
    { ...target, name: `${target.name}, no Accept-Encoding`, headers: { ...target.headers } },
  ];
}

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

export async function waitFor(url, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Start the built product on a throw-away embedded database.
 * `onStdoutLine` receives each line the server writes to stdout (its JSON log, one line per API
 * request at LOG_LEVEL=info); without it stdout is discarded.
 */
export async function startProduct(extraEnv = {}, { onStdoutLine } = {}) {
  const dataDir = extraEnv.DATA_DIR ?? tempDir('la-bench-');
  // A caller may pin the ports (PORT, EMBEDDED_PG_PORT in extraEnv); otherwise free ones are picked.
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  // BENCH_NODE_ARGS: extra flags for the product's node (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile it under load).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const pgPort = extraEnv.EMBEDDED_PG_PORT ?? String(await freePort());
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'backend', 'dist', 'server.js')], {
    cwd: root,
    stdio: ['ignore', onStdoutLine ? 'pipe' : 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: pgPort,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      ...extraEnv,
    },
  });
  if (onStdoutLine) readline.createInterface({ input: child.stdout }).on('line', onStdoutLine);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/ready`);
  return {
    url,
    pid: child.pid,
    dataDir,
    /** The product's embedded database, for a second process of the product (a worker) to share. */
    databaseUrl: () => {
      const { password } = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
      return `postgres://postgres:${encodeURIComponent(password)}@${encodeURIComponent(path.join(dataDir, 'pg'))}:${pgPort}/listing_ads`;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          if (!extraEnv.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A browser's session on the product, for seeding a bench through the API: JSON in, the session cookie it is
 * given kept and sent back (with the Origin a browser sends), any answer from 300 up an error. `text` answers
 * the body as sent (byte for byte, for a replay); `json` parses it; `cookie` is the session cookie for the load.
 */
export function browserSession(origin) {
  let cookie = '';
  async function text(method, p, body) {
    const res = await fetch(`${origin}${p}`, {
      method,
      headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status >= 300) throw new Error(`seed ${method} ${p} failed: ${res.status} ${await res.text()}`);
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    if (set) cookie = set;
    return res.text();
  }
  return {
    text,
    json: async (method, p, body) => JSON.parse(await text(method, p, body)),
    get cookie() {
      return cookie;
    },
  };
}

/**
 * A blank page (a heading and a line of text) on its own port: Lighthouse's floor on this machine. Even this
 * page shows long tasks from the browser's start there (TBT 50–260 ms), so page benches run it beside theirs.
 * It runs in its own process (scripts/bench/blank-page.mjs): the benches run Lighthouse synchronously.
 */
export async function startBlankPage() {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'bench', 'blank-page.mjs')], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(url);
  return { url, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }) };
}

/**
 * One mobile Lighthouse run (lighthouse 12.8.2, its default emulation and simulated throttling, Debian's Chromium)
 * of `url`, its JSON report written to `file`. Lighthouse now and then fails to record a trace on a busy machine
 * (NO_NAVSTART): such a run is repeated, up to twice. Returns the page's figures, and the JavaScript as received
 * (transfer bytes) split into the scripts asked for before the load event and those fetched after it.
 */
export function runLighthouse(url, file, { log = (...a) => console.error('[lighthouse]', ...a) } = {}) {
  const cli = path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js');
  for (let attempt = 1; ; attempt++) {
    const res = spawnSync(
      process.execPath,
      [cli, url, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${file}`, '--chrome-flags=--headless=new --no-sandbox --disable-gpu'],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
    );
    if (res.status === 0) break;
    if (attempt >= 3) throw new Error(`lighthouse exited with ${res.status} on ${url}`);
    log(`lighthouse run on ${url} failed, repeating it`);
  }
  const lhr = JSON.parse(fs.readFileSync(file, 'utf8'));
  const audit = (id) => lhr.audits[id]?.numericValue;
  const loadAt = lhr.audits.metrics?.details?.items?.[0]?.observedLoad ?? Infinity;
  const js = (lhr.audits['network-requests']?.details?.items ?? []).filter((r) => /\.js(\?|$)/.test(r.url));
  const atLoad = js.filter((r) => r.networkRequestTime < loadAt);
  const later = js.filter((r) => r.networkRequestTime >= loadAt);
  const kib = (rs) => rs.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024;
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    lcp: audit('largest-contentful-paint'),
    fcp: audit('first-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbt: audit('total-blocking-time'),
    si: audit('speed-index'),
    jsKiB: kib(atLoad),
    scripts: atLoad.length,
    afterKiB: kib(later),
    afterScripts: later.length,
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/**
 * Reads side by side at `connections`: each target warmed up once, then `rounds` rounds alternating between the
 * targets, so the machine's drift falls on all of them alike. `targets[0]` is the baseline (bare Koa). Prints
 * the medians over the rounds (req/s, ratio to the baseline, p50, p99, bytes per response, timeouts) under
 * `title`, with `extra(row)` columns after the ratio, and returns the rows. A non-2xx answer fails the bench.
 */
export async function compareReads(title, targets, { rounds, duration, connections, extra = () => ({}) }) {
  const run = (t, seconds, conns) =>
    new Promise((resolve, reject) => autocannon({ url: t.url, connections: conns, duration: seconds, headers: t.headers ?? {} }, (err, res) => (err ? reject(err) : resolve(res))));
  // JIT, pool connections and read caches.
  for (const t of targets) await run(t, 2, 10);
  const results = new Map(targets.map((t) => [t.name, []]));
  const load = [];
  for (let round = 0; round < rounds; round++) {
    for (const t of targets) {
      const cpuBefore = t.pid ? processCpuMs(t.pid) : null;
      const r = await run(t, duration, connections);
      const cpuAfter = t.pid ? processCpuMs(t.pid) : null;
      if (r.non2xx) throw new Error(`${t.name}: ${r.non2xx} non-2xx answers ${JSON.stringify(r.statusCodeStats ?? {})}`);
      // Timeouts (no answer within autocannon's 10 s) are counted and shown, not hidden.
      // The serving process's CPU per answer (t.pid): steadier than req/s on a machine shared with other runs.
      const cpuUs = cpuBefore !== null && cpuAfter !== null && r.requests.total ? ((cpuAfter - cpuBefore) * 1000) / r.requests.total : null;
      results.get(t.name).push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bytes: r.throughput.average / r.requests.average, timeouts: r.timeouts + r.errors, cpuUs });
    }
    load.push(os.loadavg()[0]);
  }
  const baseline = median(results.get(targets[0].name).map((x) => x.rps));
  const rows = targets.map((t) => {
    const xs = results.get(t.name);
    const rps = median(xs.map((x) => x.rps));
    const cpu = xs.map((x) => x.cpuUs).filter((x) => x !== null);
    return { target: t.name, rps, ratio: rps / baseline, p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)), bytes: median(xs.map((x) => x.bytes)), timeouts: xs.reduce((n, x) => n + x.timeouts, 0), cpuUs: cpu.length ? median(cpu) : null };
  });
  console.log(`\n${title} — ${rounds} alternating rounds × ${duration} s, ${connections} connections, medians; ${os.cpus().length} cores, 1-min load after each round: ${load.map((l) => l.toFixed(2)).join(', ')}\n`);
  console.table(
    rows.map((row) => ({
      target: row.target,
      'req/s': Math.round(row.rps),
      'ratio to bare Koa': Number(row.ratio.toFixed(2)),
      ...extra(row),
      ...(targets.some((t) => t.pid) ? { 'CPU µs/req': row.cpuUs === null ? '' : Math.round(row.cpuUs) } : {}),
      'p50 ms': row.p50,
      'p99 ms': row.p99,
      'bytes/response': Math.round(row.bytes),
      'timeouts (all rounds)': row.timeouts,
    })),
  );
  return rows;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ). */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU seconds a process has used so far in user and in system (kernel) time, from /proc; null once it is gone. */
function readCpuTimes(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** CPU seconds a process has used so far in user and in system (kernel) time, from /proc; 0 once it is gone. */
export const cpuTimesOf = (pid) => readCpuTimes(pid) ?? { user: 0, system: 0 };

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it is gone. */
export function cpuSecondsOf(pid) {
  const { user, system } = cpuTimesOf(pid);
  return user + system;
}

/** CPU time (user + system, ms) a process has used so far, from /proc; null where it cannot be read. */
export function processCpuMs(pid) {
  const t = readCpuTimes(pid);
  return t ? (t.user + t.system) * 1000 : null;
}

/** CPU seconds used so far by every process of the OS user `postgres` (the embedded database runs as it). */
export function postgresCpuSeconds() {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
  if (!uid) return 0;
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.statSync(`/proc/${entry}`).uid !== Number(uid)) continue;
    } catch {
      continue;
    }
    total += cpuSecondsOf(entry);
  }
  return total;
}

/**
 * The demo MLS agents' listings (Sarah Johnson, Michael Chen, Emily Rodriguez), loaded as the wizard does: the agent
 * found, created and loaded, then every page of listings read. Returns their mlsIds.
 */
export async function seedDemoListings(origin) {
  const mlsIds = [];
  for (const [name, state] of [['Sarah Johnson', 'FL'], ['Michael Chen', 'CA'], ['Emily Rodriguez', 'TX']]) {
    const session = browserSession(origin);
    const found = await session.json('POST', '/api/mls/search-agent', { name, state });
    const agent = await session.json('POST', '/api/agents', found);
    await session.json('POST', '/api/mls/load', { agentId: agent.id, mlsId: found.mlsId });
    // Paged ({listings, nextCursor}): follow the cursor.
    for (let cursor = null; ; ) {
      const page = await session.json('GET', `/api/agents/${agent.id}/listings${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      for (const l of page.listings) mlsIds.push(l.mlsId);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
  }
  return mlsIds;
}

/** Each listing page's lead-form token (a form is taken 3 s after its page was rendered: wait that long before sending). */
export async function leadFormTokens(origin, mlsIds) {
  const tokens = new Map();
  for (const id of mlsIds) {
    const page = await (await fetch(`${origin}/listing/${id}`)).text();
    tokens.set(id, JSON.parse(/<script type="application\/json" id="listing-page-data">([\s\S]*?)<\/script>/.exec(page)[1]).formToken);
  }
  return tokens;
}

/**
 * autocannon's setupRequest for lead POSTs: one new form per request (its own idempotency key), spread over the
 * listings, each from its own client address (X-Forwarded-For: the product runs with TRUST_PROXY), so that the
 * limits per address and per listing (100 an hour) stay real and out of the way.
 */
export function leadRequests(origin, mlsIds, tokens) {
  let n = 0;
  return (req) => {
    n += 1;
    const id = mlsIds[n % mlsIds.length];
    return {
      ...req,
      path: `/api/listings/${id}/leads`,
      headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
      body: JSON.stringify({
        name: 'Bench Buyer',
        // Each its own buyer: an exact repeat (same email, name and message) would be the stored lead again.
        email: `bench${n}@example.com`,
        message: 'Is it still available?',
        interestedInTour: true,
        formToken: tokens.get(id),
        idempotencyKey: crypto.randomBytes(16).toString('base64url'),
        consentVersion: 'tcpa-2026-11',
        pageUrl: `${origin}/listing/${id}`,
      }),
    };
  };
}

/** A buyer's lead form body, as the listing page sends it: buyer `i` (its own email), a form token signed by `tokens`. */
export function leadFormJson(tokens, mlsId, i, name = `Buyer ${i}`) {
  return JSON.stringify({
    name,
    email: `buyer${i}@example.com`,
    message: 'Is it still available?',
    interestedInTour: true,
    interestedInSimilar: false,
    formToken: tokens.issue(mlsId, Date.now() - 5000),
    idempotencyKey: crypto.randomBytes(12).toString('base64url'),
  });
}

/**
 * `count` POSTs at `connections` (closed loop) to `url`, each request made by `setupRequest`: each answer's time, and
 * answers per second between the first answer and the last (autocannon's own figure counts whole seconds of its
 * sampling timer). Any answer but 2xx fails the bench.
 */
export async function postClosedLoop(url, setupRequest, { count, connections = 20, label }) {
  const times = [];
  const at = [];
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, amount: count, requests: [{ method: 'POST', setupRequest }] }, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client, _status, _bytes, ms) => {
      times.push(ms);
      at.push(performance.now());
    });
  });
  if (result.non2xx || result.errors) throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { times, rps: (at.length - 1) / ((at[at.length - 1] - at[0]) / 1000) };
}

/**
 * CPU seconds used so far by one embedded PostgreSQL: its postmaster (from `DATA_DIR/pg/postmaster.pid`) and the
 * backends it forked. Unlike `postgresCpuSeconds`, it leaves out every other cluster of the OS user `postgres`
 * (other test runs on a shared machine) and a PgBouncer running as that user.
 */
export function clusterCpuSeconds(dataDir) {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuSecondsOf(postmaster);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The parent's pid is the 2nd field after the command name.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) total += cpuSecondsOf(entry);
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

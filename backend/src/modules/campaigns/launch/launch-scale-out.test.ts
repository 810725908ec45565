import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../../../../test/helpers';
import { launchJobs } from '../../../../test/jobs';
import { loadConfig, REPO_ROOT } from '../../../platform/config';
import { createDb, type Db } from '../../../platform/db/knex';
import { createQueue, type Queue } from '../../../platform/jobs/queue';
import { createLogger } from '../../../platform/logger';
import { launchCampaignJob, markCampaignPaid } from '..';
import { startFakeGraph, type FakeGraph } from '../testing/fake-graph-server';
import { insertListingWithDraftCampaign, waitFor } from '../../../../test/factories';
import { META_TEST_ENV } from '../testing/meta-graph-shapes';

/**
 * Scaling out is many app processes on one PostgreSQL (docker-compose.yml runs two web processes and a
 * worker). Two built servers run here on one test database, both working the job queue: a launch
 * happens once, and a rate limit counts requests that reached either process.
 */

const SERVER = path.join(REPO_ROOT, 'backend', 'dist', 'server.js');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let queue: Queue;
let graph: FakeGraph;
let dataDir: string;
const servers: { child: ChildProcess; url: string }[] = [];

/** node backend/dist/server.js on this database; resolves with its URL once it logs "ready". */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'scale-out-test-session-secret-0123456789ab',
      ADMIN_PASSWORD: 'scale out admin',
      JOBS_ENABLED: 'true',
      META_GRAPH_URL: graph.url,
      ...META_TEST_ENV,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /"url":"http:\/\/localhost:(\d+)".*"msg":"ready on /.exec(output);
      if (ready) {
        clearTimeout(timer);
        const server = { child, url: `http://127.0.0.1:${ready[1]}` };
        servers.push(server);
        resolve(server);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'backend'], { cwd: REPO_ROOT, stdio: 'pipe' });
  database = await createTestDatabase();
  db = createDb(database.url, { max: 4 });
  graph = await startFakeGraph({ latencyMs: 50 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-out-'));
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  queue = createQueue({ connectionString: database.url, db, logger: createLogger('silent'), config, jobs: [launchCampaignJob], work: false });
  await queue.start();
  // One after the other: each migrates at start (nothing to do on the test database, but the lock is shared).
  await startServer();
  await startServer();
}, 120_000);

afterAll(async () => {
  await Promise.all(
    servers.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await queue?.stop();
  await db?.destroy();
  await graph?.close();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('launches a paid campaign once, though both processes work the queue and the launch job is sent twice', async () => {
  const { campaignId } = await insertListingWithDraftCampaign(db);
  await db.transaction((trx) => markCampaignPaid(trx, queue, campaignId, 'payment confirmed'));
  // A second delivery of the same launch (a webhook and the success screen both confirming, a redrive…).
  await queue.send(launchCampaignJob, { campaignId });
  const done = await waitFor(
    'active',
    async () => {
      const c = await db('campaigns').where({ id: campaignId }).first();
      return c.status === 'active' || c.status === 'launch_failed' ? c : null;
    },
    60_000,
    50,
  );
  expect([done.status, done.launchError]).toEqual(['active', null]);
  // Let every job for this campaign finish, then count what Meta received.
  await waitFor(
    'both launch jobs settled',
    async () => {
      const jobs = await launchJobs(db, campaignId);
      return jobs.length >= 2 && jobs.every((j) => !j.open);
    },
    60_000,
    50,
  );
  expect(graph.posts).toMatchObject({ campaigns: 1, adsets: 1, adimages: 1, adcreatives: 1, ads: 1 });
}, 120_000);

it('counts a rate limit across both processes: the login limit for one email holds whichever process answers', async () => {
  const login = (url: string) =>
    fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'shared-limit@example.com', password: 'not-the-password' }),
    });
  const [a, b] = servers;
  // Process A alone until it refuses: the limit for this email is used up there.
  let accepted = 0;
  for (let status = 0; status !== 429; ) {
    status = (await login(a.url)).status;
    if (status === 401) accepted++;
    else expect(status).toBe(429);
    expect(accepted).toBeLessThan(100);
  }
  expect(accepted).toBeGreaterThan(0);
  // Process B has never seen this email, yet refuses at once: the count lives in PostgreSQL, not in A.
  expect((await login(b.url)).status).toBe(429);
}, 60_000);

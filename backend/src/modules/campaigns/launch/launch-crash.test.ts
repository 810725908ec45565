import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../../../../test/helpers';
import { loadConfig, REPO_ROOT } from '../../../platform/config';
import { createDb, type Db } from '../../../platform/db/knex';
import { createQueue, type Queue } from '../../../platform/jobs/queue';
import { createLogger } from '../../../platform/logger';
import { markCampaignPaid, launchCampaignJob } from '..';
import { startFakeGraph, type FakeGraph } from '../testing/fake-graph-server';
import { insertListingWithDraftCampaign, waitFor } from '../../../../test/factories';
import { META_TEST_ENV } from '../testing/meta-graph-shapes';

/**
 * kill -9 in the middle of a launch: the built server runs in a child process against a test
 * database and a fake Graph API on loopback. The fake creates the ad set and never answers (Meta
 * made it, we never heard), the child is SIGKILLed, a new server starts, and the launch must finish
 * with exactly one Meta campaign and one ad set.
 */

const SERVER = path.join(REPO_ROOT, 'backend', 'dist', 'server.js');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let queue: Queue;
let graph: FakeGraph;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  // The server under test is the built one.
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'backend'], { cwd: REPO_ROOT, stdio: 'pipe' });
  database = await createTestDatabase();
  db = createDb(database.url, { max: 4 });
  graph = await startFakeGraph();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'launch-crash-'));
  // This process only sends jobs (the payment side); the child servers work them.
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  queue = createQueue({ connectionString: database.url, db, logger: createLogger('silent'), config, jobs: [launchCampaignJob], work: false });
  await queue.start();
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await queue?.stop();
  await db?.destroy();
  await graph?.close();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** node backend/dist/server.js with Meta pointed at the fake Graph server; resolves once it logs "ready". */
function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'crash-test-session-secret-0123456789abcdef',
      ADMIN_PASSWORD: 'crash test admin',
      META_GRAPH_URL: graph.url,
      ...META_TEST_ENV,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/"msg":"ready on /.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

it('a launch killed (SIGKILL) between Meta creating the ad set and our write finishes after a restart, with one Meta campaign', async () => {
  const { campaignId } = await insertListingWithDraftCampaign(db);
  const first = await startServer();

  const hung = new Promise<void>((resolve) => graph.hang('adsets', 1, resolve));
  await db.transaction((trx) => markCampaignPaid(trx, queue, campaignId, 'payment confirmed'));
  await hung;
  first.kill('SIGKILL');
  await exited(first);

  // What survived the crash: the Meta campaign id, the pending ad set row; Meta has the ad set, we do not know its id.
  const before = await db('campaigns').where({ id: campaignId }).first();
  expect(before.status).toBe('launching');
  expect(before.facebookCampaignId).toBe(graph.created.campaigns[0].id);
  expect((await db('adSets').where({ campaignId }).first()).facebookAdSetId).toBeNull();
  expect(graph.created.adsets).toHaveLength(1);

  const killedAt = Date.now();
  const second = await startServer();
  // pg-boss fails the dead worker's job once its heartbeat is stale and its supervisor next runs (up to a minute), then retries it.
  const after = await waitFor(
    'active after the restart',
    async () => {
      const c = await db('campaigns').where({ id: campaignId }).first();
      return c.status === 'active' || c.status === 'launch_failed' ? c : null;
    },
    150_000,
    250,
  );
  expect([after.status, after.launchError]).toEqual(['active', null]);
  expect(graph.posts.campaigns).toBe(1);
  expect(graph.created.campaigns).toHaveLength(1);
  expect(graph.created.adsets).toHaveLength(1); // found by name after the restart, not created again
  expect(graph.posts.ads).toBe(1);
  expect((await db('adSets').where({ campaignId }).first()).facebookAdSetId).toBe(graph.created.adsets[0].id);
  expect(after.launchAttempts).toBe(2);
  // Recovery took heartbeat + supervisor + retry delay, not the 120 s expiry plus supervisor.
  expect(Date.now() - killedAt).toBeLessThan(120_000);

  second.kill('SIGTERM');
  await exited(second);
}, 240_000);

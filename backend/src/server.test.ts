import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { z } from 'zod';
import { startServer } from './server';
import { loadConfig } from './platform/config';
import { createLogger } from './platform/logger';
import { defineJob } from './platform/jobs/job';
import { createTestDatabase } from '../test/helpers';

describe('startServer / stop', () => {
  it('serves, then on stop finishes the running job before closing the pool', async () => {
    const database = await createTestDatabase();
    const events: string[] = [];
    let started!: () => void;
    const jobStarted = new Promise<void>((r) => (started = r));
    const slowJob = defineJob({
      name: 'test.slow',
      payload: z.object({}),
      options: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 30 },
      async handler(_p, { db }) {
        started();
        await new Promise((r) => setTimeout(r, 500));
        // The pool is still open while the job runs.
        await db.raw('select 1');
        events.push('job finished');
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-server-test-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
    const running = await startServer(config, createLogger('silent'), { jobs: [slowJob] });
    const res = await fetch(`${running.url}/api/ready`);
    expect(await res.json()).toEqual({ status: 'ready', database: true, jobs: true });

    await running.queue.send(slowJob, {});
    await jobStarted;
    await running.stop();
    events.push('stopped');
    expect(events).toEqual(['job finished', 'stopped']);

    const port = Number(new URL(running.url).port);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    await expect(running.db.raw('select 1')).rejects.toThrow();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails a job still running when SHUTDOWN_GRACE_MS is over, so that its retry runs it again', async () => {
    const database = await createTestDatabase();
    let started!: () => void;
    const jobStarted = new Promise<void>((r) => (started = r));
    const stuckJob = defineJob({
      name: 'test.stuck',
      payload: z.object({}),
      options: { retryLimit: 2, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
      async handler(_p, { signal }) {
        started();
        // Told when its job is released (the signal aborts after the fail).
        await new Promise<void>((r) => {
          const t = setTimeout(r, 5000);
          signal.addEventListener('abort', () => (clearTimeout(t), r()));
        });
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-server-test-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '1000' });
    const running = await startServer(config, createLogger('silent'), { jobs: [stuckJob] });
    const id = await running.queue.send(stuckJob, {});
    await jobStarted;
    const t0 = Date.now();
    await running.stop();
    // Well before the handler's 5 s: the grace, then the release.
    expect(Date.now() - t0).toBeLessThan(4000);
    const { Client } = await import('pg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query('select state, output from pgboss.job where id = $1', [id]);
    await client.end();
    expect(rows).toEqual([{ state: 'retry', output: { value: 'pg-boss shut down while active' } }]);
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

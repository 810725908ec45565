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
});

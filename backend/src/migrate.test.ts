/**
 * A release that migrates once (Kubernetes: the migrate Job, `node backend/dist/migrate.js`) while its processes
 * start with MIGRATE_ON_START=false: a process on an empty database waits, without serving, until the
 * migration has run, then serves.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { REPO_ROOT, loadConfig } from './platform/config';
import { startServer } from './server';
import { adminQuery as admin } from '../test/helpers';

beforeAll(() => {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', path.join(REPO_ROOT, 'backend')], { stdio: 'ignore' });
}, 180_000);

describe('migrate once, then serve', () => {
  it('a process with MIGRATE_ON_START=false waits for migrate.js, then serves on the current schema', async () => {
    // An empty database: no tables at all.
    const name = `t_migrate_${crypto.randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    const url = `${process.env.TEST_PG_URL_PREFIX}${name}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-migrate-test-'));
    const lines: { msg?: string; pending?: string[] }[] = [];
    let waiting!: () => void;
    const sawWait = new Promise<void>((resolve) => (waiting = resolve));
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          const line = JSON.parse(chunk.toString());
          lines.push(line);
          if (String(line.msg).startsWith('waiting for the database migrations')) waiting();
          done();
        },
      }),
    );
    try {
      const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, MIGRATE_ON_START: 'false', JOBS_ENABLED: 'false' });
      let served = false;
      const starting = startServer(config, logger).then((r) => ((served = true), r));
      await sawWait;
      expect(served).toBe(false);
      const waitLine = lines.find((l) => String(l.msg).startsWith('waiting for the database migrations'));
      expect(waitLine!.pending!.length).toBeGreaterThan(20);

      // The release's migrate Job.
      const migrate = spawnSync(process.execPath, [path.join(REPO_ROOT, 'backend', 'dist', 'migrate.js')], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: url },
        encoding: 'utf8',
      });
      expect(migrate.status).toBe(0);
      expect(migrate.stdout).toContain('migrate: migrations applied');
      expect(migrate.stdout).toContain('migrate: job queues ready');

      const running = await starting;
      try {
        const ready = await fetch(`${running.url}/api/ready`);
        expect(await ready.json()).toEqual({ status: 'ready', database: true, jobs: true });
        // A second run finds nothing to do.
        const again = spawnSync(process.execPath, [path.join(REPO_ROOT, 'backend', 'dist', 'migrate.js')], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: url }, encoding: 'utf8' });
        expect(again.status).toBe(0);
        expect(again.stdout).toContain('migrate: the schema is current');
      } finally {
        await running.stop();
      }
    } finally {
      await admin(`drop database if exists ${name} with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('migrates PostgreSQL itself (DATABASE_DIRECT_URL) when DATABASE_URL is the pooler', async () => {
    const name = `t_migrate_${crypto.randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    try {
      const direct = `${process.env.TEST_PG_URL_PREFIX}${name}`;
      // The pooler's address: nothing listens there, so a migration that went through it would fail.
      const pooler = direct.replace(/@([^:/]+):\d+\//, '@$1:9/');
      expect(pooler).not.toBe(direct);
      const env = { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: pooler, DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: direct };
      const res = spawnSync(process.execPath, [path.join(REPO_ROOT, 'backend', 'dist', 'migrate.js')], { cwd: REPO_ROOT, env, encoding: 'utf8' });
      expect({ status: res.status, out: res.stdout.includes('migrate: job queues ready') }).toEqual({ status: 0, out: true });
      const again = spawnSync(process.execPath, [path.join(REPO_ROOT, 'backend', 'dist', 'migrate.js')], { cwd: REPO_ROOT, env, encoding: 'utf8' });
      expect(again.stdout).toContain('migrate: the schema is current');
    } finally {
      await admin(`drop database if exists ${name} with (force)`);
    }
  }, 120_000);

  it('refuses to run without DATABASE_URL', () => {
    const res = spawnSync(process.execPath, [path.join(REPO_ROOT, 'backend', 'dist', 'migrate.js')], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, NODE_ENV: 'test' }, encoding: 'utf8' });
    expect(res.status).toBe(78);
    expect(res.stdout).toContain('DATABASE_URL is not set');
  });
});

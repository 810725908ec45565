#!/usr/bin/env node
// The product as the browser tests see it: the built app on E2E_PORT, on a throw-away embedded database.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'la-e2e-'));
fs.chmodSync(dataDir, 0o755);
// Browser tests read the emails the product sends (verification links) from DATA_DIR/outbox: they find it here.
const port = process.env.E2E_PORT ?? '3210';
const dataDirNote = path.join(os.tmpdir(), `la-e2e-${port}.datadir`);
fs.writeFileSync(dataDirNote, dataDir);

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const child = spawn(process.execPath, [path.join(root, 'backend', 'dist', 'server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  },
});
const cleanup = () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dataDirNote, { force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  cleanup();
  process.exit(code ?? 0);
});

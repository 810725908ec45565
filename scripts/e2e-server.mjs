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
// …and the embedded database's port, so a journey can run the ops CLI against this product (the autopilot journey).

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * The admin remote deployed on its own (DESIGN §1): when E2E_ADMIN_REMOTE_PORT is set, frontend-admin/dist
 * is served by this plain static server with CORS from a second origin, and the app is pointed at it through
 * ADMIN_REMOTE_URL, as an admin team hosting its build anywhere would do. Same path as on the app
 * (/remotes/admin/), another origin.
 */
const adminRemotePort = process.env.E2E_ADMIN_REMOTE_PORT;
let adminRemoteServer;
if (adminRemotePort) {
  const http = await import('node:http');
  const distDir = path.join(root, 'frontend-admin', 'dist');
  const types = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.html': 'text/html', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff' };
  adminRemoteServer = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    const rel = decodeURIComponent(pathname).replace(/^\/remotes\/admin\//, '');
    const file = path.resolve(distDir, rel);
    if (!file.startsWith(distDir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => adminRemoteServer.listen(Number(adminRemotePort), '127.0.0.1', resolve));
}

const pgPort = String(await freePort());
const pgPortNote = path.join(os.tmpdir(), `la-e2e-${port}.pgport`);
fs.writeFileSync(pgPortNote, pgPort);

const child = spawn(process.execPath, [path.join(root, 'backend', 'dist', 'server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // 'test' unless a journey asks otherwise: the journeys' webhook receivers listen on 127.0.0.1, and
    // OUTBOUND_ALLOW_LOOPBACK is refused in production; a journey may scale campaign time (production refuses a scale).
    NODE_ENV: process.env.E2E_NODE_ENV ?? 'test',
    PUBLIC_URL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`,
    // A 1-hour autopilot veto window lasts 7.2 seconds (and the 72-hour expiry about 9 minutes); production refuses a scale.
    ...((process.env.E2E_NODE_ENV ?? 'test') === 'production' ? {} : { AUTOPILOT_TIME_SCALE: '0.002' }),
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: pgPort,
    ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password',
    ...(adminRemotePort ? { ADMIN_REMOTE_URL: `http://127.0.0.1:${adminRemotePort}/remotes/admin/remoteEntry.js` } : {}),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // Lead delivery journeys post to a receiver on 127.0.0.1 (the SSRF guard refuses loopback otherwise).
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    // As behind a load balancer: a journey may come from another client address (X-Forwarded-For); without the
    // header the address is the socket's, as before.
    TRUST_PROXY: 'true',
  },
});
const cleanup = () => {
  adminRemoteServer?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dataDirNote, { force: true });
  fs.rmSync(pgPortNote, { force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  cleanup();
  process.exit(code ?? 0);
});

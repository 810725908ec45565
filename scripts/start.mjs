#!/usr/bin/env node
// `npm start`: build what is missing or stale, then run the product on one port (PORT, default 3000):
// embedded PostgreSQL and the embedded providers unless configured otherwise (see README).
//
// Stopping (Ctrl-C, or SIGTERM to npm's process or to its process group) must stop the server in order and
// exit 0, its embedded database last. So:
// - package.json's script `exec`s this file: npm forwards SIGINT and SIGTERM to its child, and a shell between
//   them would die of the signal instead of passing it on (leaving the server running);
// - the server runs in a process group of its own (`detached`), with its embedded PostgreSQL: Ctrl-C reaches
//   the terminal's process group, and PostgreSQL must not get it (it would end every connection at once, 57P01,
//   under the requests still being answered). This process passes each signal on; the server stops once;
// - an IPC channel ties the server to this process: if this one is killed outright, the server stops too.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// Tracing (OpenTelemetry) is loaded before the app, and only when it has somewhere to send spans.
const preload = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? ['--import', path.join(root, 'backend', 'otel.mjs')] : [];
const child = spawn(process.execPath, [...preload, path.join(root, 'backend', 'dist', 'server.js')], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  detached: true,
  // Production requires PUBLIC_URL (the origin of every absolute link); a local `npm start` is served on localhost.
  env: { NODE_ENV: 'production', PUBLIC_URL: `http://localhost:${process.env.PORT || 3000}`, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

#!/usr/bin/env node
// `npm start`: build what is missing or stale, then run the product on one port (PORT, default 3000):
// embedded PostgreSQL and the embedded providers unless configured otherwise (see README).
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
  stdio: 'inherit',
  // Production requires PUBLIC_URL (the origin of every absolute link); a local `npm start` is served on localhost.
  env: { NODE_ENV: 'production', PUBLIC_URL: `http://localhost:${process.env.PORT || 3000}`, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

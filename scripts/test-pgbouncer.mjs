#!/usr/bin/env node
// `npm run test:pgbouncer` (part of `npm test`): the product's API and job suites once more, each app reaching
// its database through a PgBouncer in transaction mode with DATABASE_POOLER=transaction (backend/test/global-setup.ts
// starts it in front of the test run's embedded PostgreSQL). Debian's pgbouncer is 1.18, without support for
// named prepared statements: this run proves the safe paths. The suites are the test files that build the app
// (createTestContext), and the PgBouncer checks (*.pgbouncer.test.ts, which only this run runs). Extra arguments go to jest.
// Skipped, and said so, only where pgbouncer is not installed (`.ci/run` installs it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// The one place that looks for the binary (compiled: `npm test` builds before this runs).
const { pgbouncerBinary } = require(path.join(root, 'backend', 'dist', 'platform', 'db', 'testing', 'pgbouncer.js'));

if (!pgbouncerBinary()) {
  console.log('\n[test:pgbouncer] SKIPPED: pgbouncer is not installed on this machine, so the API and job suites did not run through PgBouncer.');
  console.log('[test:pgbouncer] Install it (Debian: apt-get install pgbouncer; .ci/run does) to run them.\n');
  process.exit(0);
}

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    if (!e.name.endsWith('.test.ts')) return [];
    const text = fs.readFileSync(p, 'utf8');
    return e.name.endsWith('.pgbouncer.test.ts') || text.includes('createTestContext(') ? [path.relative(root, p)] : [];
  });
}
const files = testFiles(path.join(root, 'backend', 'src'));
console.log(`[test:pgbouncer] ${files.length} test files through PgBouncer (transaction mode, DATABASE_POOLER=transaction)`);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
// The files first: --selectProjects takes every value after it.
const res = spawnSync(process.execPath, [jest, ...files, ...process.argv.slice(2), '--selectProjects', 'server'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_POOLER: 'pgbouncer' },
});
process.exit(res.status ?? 1);

#!/usr/bin/env node
// `npm run test:pgbouncer` (part of `npm test`): the product's API and job suites once more, each app reaching
// its database through a PgBouncer in transaction mode with DATABASE_POOLER=transaction (backend/test/global-setup.ts
// starts it in front of the test run's embedded PostgreSQL). Debian's pgbouncer is 1.18, without support for
// named prepared statements: this run proves the safe paths. The suites are the test files that build the app
// (createTestContext) but those in LEFT_OUT, and the PgBouncer checks (*.pgbouncer.test.ts, which only this run
// runs). Extra arguments go to jest.
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

// Left out: suites whose time goes to work other than the database (hashing, files, fuzzing, documents, outside
// providers through nock), each of whose database paths other suites here run. They would add half again to this
// run (about 600 of 1,340 s of test time on this machine) for no mechanism that is not already covered.
const LEFT_OUT = new Map([
  ['backend/src/app.fuzz.test.ts', 'malformed input against every route: the validation layer, before any statement'],
  ['backend/src/access-matrix.test.ts', 'the authorization of every route: the same session and agent reads as the route suites'],
  ['backend/src/api-docs.test.ts', 'the API reference'],
  ['backend/src/modules/agents/account.routes.test.ts', 'argon2 hashing; its session writes and revocations run in platform/http/session-store.test.ts'],
  ['backend/src/modules/agents/google-login.routes.test.ts', 'the Google OAuth exchange (nock)'],
  ['backend/src/modules/uploads/uploads.routes.test.ts', 'file bytes on disk'],
  ['backend/src/modules/uploads/providers/gcs.test.ts', 'Google Cloud Storage signing (nock)'],
  ['backend/src/modules/help/help.routes.test.ts', 'the help articles and the built-in answerer'],
  ['backend/src/modules/help/articles.snippets.test.ts', 'the help articles'],
  ['backend/src/modules/notifications/delivery/ssrf.test.ts', 'outbound address checks'],
  ['backend/src/modules/campaigns/ad-copy/ad-copy.routes.test.ts', 'the built-in copywriter and OpenAI (nock)'],
  ['backend/src/modules/mls/mls.reso.routes.test.ts', 'the RESO Web API (nock)'],
  ['backend/src/modules/campaigns/targeting/targeting.routes.test.ts', 'targeting rules'],
]);

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    if (!e.name.endsWith('.test.ts')) return [];
    const text = fs.readFileSync(p, 'utf8');
    const file = path.relative(root, p);
    return e.name.endsWith('.pgbouncer.test.ts') || (text.includes('createTestContext(') && !LEFT_OUT.has(file)) ? [file] : [];
  });
}
const files = testFiles(path.join(root, 'backend', 'src'));
console.log(`[test:pgbouncer] ${files.length} test files through PgBouncer (transaction mode, DATABASE_POOLER=transaction); ${LEFT_OUT.size} left out (scripts/test-pgbouncer.mjs says why)`);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
// The files first: --selectProjects takes every value after it.
const res = spawnSync(process.execPath, [jest, ...files, ...process.argv.slice(2), '--selectProjects', 'server'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_POOLER: 'pgbouncer' },
});
process.exit(res.status ?? 1);

#!/usr/bin/env node
// Lints the OpenAPI document the server serves (GET /api/openapi.json) with Redocly's `recommended` ruleset:
// every problem is printed, and any error or warning fails the run (issue 29: the document must serve a client
// generator, not only readers). The document is built by the compiled backend (backend/dist/api-docs.js), so the
// backend is brought up to date first (`tsc -b`, a no-op when `npm run typecheck` has just built it).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString, getTotals } from '@redocly/openapi-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const built = spawnSync('npx', ['tsc', '-b', 'backend'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const { openApiDocument } = createRequire(import.meta.url)(path.join(root, 'backend/dist/api-docs.js'));
const source = JSON.stringify(openApiDocument(), null, 2);

const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: path.join(root, 'openapi.json'), config });

for (const p of problems) {
  const where = p.location.map((l) => l.pointer).join(', ');
  console.log(`${p.severity.padEnd(7)} ${p.ruleId}  ${where}\n        ${p.message}`);
}
const { errors, warnings } = getTotals(problems);
console.log(`[lint:openapi] Redocly recommended: ${errors} error(s), ${warnings} warning(s)`);
if (errors > 0 || warnings > 0) process.exit(1);

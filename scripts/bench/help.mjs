#!/usr/bin/env node
// Help assistant benchmark: the built-in assistant's answer time (issue 12), in process, through the help
// module's door on the compiled backend. 200 questions: the 40 realistic questions of
// backend/src/modules/help/testing/questions.json asked in each of the 5 chat topics, after a warm-up
// (the articles are read once). Also the coverage: how many of the 40 pick the expected article.
// Not over HTTP: POST /api/ai-help is rate limited per IP and session (60 and 20 a minute), so 200 calls from
// one client would measure 429s; the route adds only the usual Koa + session cost measured by bench:api.
//   node scripts/bench/help.mjs [--rounds 5] [--no-build]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { root, buildBackend, median, percentile } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 5);
const TOPICS = ['general-help', 'custom-webhook', 'zapier-setup', 'crm-integration', 'webhook-testing'];

if (!process.argv.includes('--no-build')) buildBackend();
const require = createRequire(import.meta.url);
const { answerBuiltin, pickArticle } = require(path.join(root, 'backend', 'dist', 'modules', 'help', 'index.js'));
const questions = JSON.parse(fs.readFileSync(path.join(root, 'backend', 'src', 'modules', 'help', 'testing', 'questions.json'), 'utf8'));

const ask = (topic, question) => answerBuiltin({ topic, question, previousMessages: [], integration: null });

// Warm-up: read and index the articles, let the JIT settle.
for (const q of questions) ask('general-help', q.question);

const runs = [];
for (let r = 0; r < ROUNDS; r++) {
  const times = [];
  for (const topic of TOPICS) {
    for (const q of questions) {
      const t0 = performance.now();
      const answer = ask(topic, q.question);
      times.push(performance.now() - t0);
      if (!answer) throw new Error(`no answer for ${q.question}`);
    }
  }
  runs.push({ p50: percentile(times, 50), p95: percentile(times, 95), n: times.length });
}
const firsts = [];
for (const topic of TOPICS) {
  const t0 = performance.now();
  ask(topic, null);
  firsts.push(performance.now() - t0);
}

const hits = questions.filter((q) => pickArticle(q.question, 'general-help')?.topic === q.expected).length;
const fmt = (ms) => `${(ms * 1000).toFixed(0)} µs`;
console.log(`built-in help assistant, ${runs[0].n} questions per run, ${ROUNDS} runs (median of runs):`);
console.log(`  answer time p50 ${fmt(median(runs.map((r) => r.p50)))}, p95 ${fmt(median(runs.map((r) => r.p95)))}`);
console.log(`  first answers (one per topic): max ${fmt(Math.max(...firsts))}`);
console.log(`  coverage: ${hits}/${questions.length} questions pick the expected article`);

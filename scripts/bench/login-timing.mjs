#!/usr/bin/env node
// npm run bench:login-timing — does POST /api/auth/login answer an unknown email as fast as a wrong password?
// (issue 10: "the same answer in the same time"). On the built product (production mode) over a throw-away
// embedded database: one agent with an account (made through account setup and its emailed link), then
// BENCH_N (50) logins of each kind, one at a time and interleaved (so drift on a shared machine hits both
// alike), each from its own address (X-Forwarded-For behind TRUST_PROXY) so the rate limits stay out of it.
// Prints the median, p90 and the difference of the medians.
import fs from 'node:fs';
import path from 'node:path';
import { buildBackend, median, percentile, root, startProduct, tempDir } from './lib.mjs';

const N = Number(process.env.BENCH_N ?? 50);
const WARMUP = 5;
buildBackend();
const dataDir = tempDir('la-login-timing-');
const product = await startProduct({ DATA_DIR: dataDir, TRUST_PROXY: 'true', LOG_LEVEL: 'warn', ...(process.env.PORT ? { PORT: process.env.PORT } : {}), ...(process.env.EMBEDDED_PG_PORT ? { EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT } : {}) });

let ip = 0;
const nextIp = () => {
  ip += 1;
  return `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
};

async function call(method, url, body, cookie) {
  const res = await fetch(`${product.url}${url}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp(), ...(cookie ? { cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null), cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}

try {
  // The account: a wizard agent, account setup, the emailed link opened in the same session.
  const email = `timing.${Date.now()}@example.com`;
  const password = 'sunny-porch-42';
  const created = await call('POST', '/api/agents', { name: 'Tim Timing', state: 'FL', manualEntry: true });
  const cookie = created.cookie;
  const setup = await call('PUT', `/api/agents/${created.body.id}`, { email, password }, cookie);
  if (setup.status !== 202) throw new Error(`account setup: ${setup.status} ${JSON.stringify(setup.body)}`);
  const outbox = path.join(dataDir, 'outbox');
  let token;
  for (let i = 0; i < 200 && !token; i++) {
    const file = fs.existsSync(outbox) && fs.readdirSync(outbox).find((f) => fs.readFileSync(path.join(outbox, f), 'utf8').includes(`To: ${email}`));
    if (file) token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
    else await new Promise((r) => setTimeout(r, 100));
  }
  const verified = await call('POST', '/api/auth/verify-email', { token }, cookie);
  if (verified.status !== 200) throw new Error(`verify: ${verified.status}`);

  const timed = async (body) => {
    const t0 = performance.now();
    const res = await call('POST', '/api/auth/login', body);
    const ms = performance.now() - t0;
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status} ${JSON.stringify(res.body)}`);
    return { ms, answer: JSON.stringify(res.body) };
  };
  const unknown = [];
  const wrong = [];
  const answers = new Set();
  for (let i = 0; i < WARMUP + N; i++) {
    const a = await timed({ email: `nobody.${i}.${Date.now()}@example.com`, password: 'wrong-password-1' });
    const b = await timed({ email, password: `wrong-password-${i}` });
    answers.add(a.answer).add(b.answer);
    if (i >= WARMUP) {
      unknown.push(a.ms);
      wrong.push(b.ms);
    }
  }
  const fmt = (x) => x.toFixed(1);
  console.log(`login 401 answer time, ${N} each, sequential, interleaved (ms):`);
  console.log(`  unknown email:  median ${fmt(median(unknown))}  p90 ${fmt(percentile(unknown, 90))}  min ${fmt(Math.min(...unknown))}  max ${fmt(Math.max(...unknown))}`);
  console.log(`  wrong password: median ${fmt(median(wrong))}  p90 ${fmt(percentile(wrong, 90))}  min ${fmt(Math.min(...wrong))}  max ${fmt(Math.max(...wrong))}`);
  console.log(`  difference of medians: ${fmt(median(wrong) - median(unknown))} ms; distinct answer bodies: ${answers.size}`);
} finally {
  await product.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

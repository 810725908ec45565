/**
 * No 500 on odd input: every route mounted in the app (found by walking the app's routers, so a new route
 * is fuzzed without touching this file) gets malformed bodies, wrong types, control characters, broken
 * Unicode, prototype keys, deep nesting, huge strings, bad Content-Encoding and odd path parameters.
 * Any 5xx fails the test. The counts are printed and written to FUZZ_REPORT (when set).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import type Koa from 'koa';
import type Router from '@koa/router';
import { createTestContext, type TestContext } from '../test/helpers';
import { createApp } from './app';
import { createLogger } from './platform/logger';

let t: TestContext;
let app: Koa;
beforeAll(async () => {
  t = await createTestContext();
  app = createApp({ config: t.config, db: t.db, logger: createLogger('silent'), queue: t.queue });
});
afterAll(() => t.close());

interface Route {
  method: string;
  path: string;
}

/** Every (method, path) of every router the app mounts (@koa/router marks its dispatch middleware with `.router`). */
function mountedRoutes(koa: Koa): Route[] {
  const routes: Route[] = [];
  for (const mw of koa.middleware as unknown as { router?: Router }[]) {
    for (const layer of mw.router?.stack ?? []) {
      for (const method of layer.methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        routes.push({ method, path: String(layer.path) });
      }
    }
  }
  return routes;
}

const FIELDS = [
  'id', 'name', 'state', 'email', 'phone', 'brokerage', 'mlsId', 'manualEntry', 'password', 'confirmPassword', 'currentPassword',
  'newPassword', 'token', 'agentId', 'listingId', 'campaignId', 'fullName', 'address', 'city', 'postalCode', 'price', 'bedrooms',
  'bathrooms', 'squareFeet', 'status', 'images', 'imageUrl', 'description', 'templateType', 'adFormat', 'headline', 'subtitle',
  'callToAction', 'targetAudience', 'impressions', 'impressionsRequested', 'budget', 'amount', 'carouselImages', 'link',
  'targetingLocation', 'targetingInterests', 'targetingTemplate', 'radius', 'location', 'interests', 'contentType', 'size',
  'fileName', 'kind', 'message', 'interestedInTour', 'interestedInSimilar', 'clientSecret', 'paymentIntentId', 'cardNumber',
  'number', 'expiry', 'cvc', 'zip', 'text', 'topic', 'question', 'profileImageUrl', 'logoUrl', 'webhookUrl',
];

const deep = (levels: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};
const deepText = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const HUGE = 'x'.repeat(100_000);

/** Odd values: each becomes a body with every field set to it. */
const VALUES: [string, unknown][] = [
  ['NUL', 'a\u0000b'],
  ['control characters', 'bell\u0007 esc\u001b[31m del\u007f'],
  ['lone high surrogate', 'a\ud800b'],
  ['lone low surrogate', '\udc00'],
  ['huge string', HUGE],
  ['empty string', ''],
  ['negative number', -1],
  ['huge number', 1e308],
  ['fraction', 0.5],
  ['big integer text', '99999999999999999999999'],
  ['array', ['a', 1, null]],
  ['object', { nested: 'value' }],
  ['boolean', true],
  ['null', null],
  ['deep object', deep(20)],
  ['path traversal', '/objects/uploads/../../api/ready'],
  ['script', '<script>alert(1)</script>'],
  ['sql', "' or 1=1 --"],
  ['unicode', '🏡 Ünïcödé ‮rtl'],
];

interface Probe {
  label: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

function bodyProbes(): Probe[] {
  const json = (label: string, value: unknown): Probe => ({ label, body: JSON.stringify(value) });
  const probes: Probe[] = [
    { label: 'malformed JSON', body: '{"name": ' },
    { label: 'trailing garbage', body: '{"name": "a"} x' },
    { label: 'not JSON at all', body: 'name=a&state=FL' },
    json('array body', []),
    json('string body', 'text'),
    json('number body', 123),
    json('null body', null),
    json('boolean body', true),
    json('empty object', {}),
    { label: 'prototype keys', body: '{"toString":"x","constructor":"x","valueOf":"x","hasOwnProperty":"x"}' },
    { label: '__proto__ key', body: '{"__proto__":{"admin":true,"isAdmin":true},"name":"a"}' },
    { label: 'nested prototype key', body: '{"targetingLocation":{"constructor":{"prototype":{"x":1}}}}' },
    { label: 'NUL escaped in a key', body: '{"na\\u0000me":"a"}' },
    { label: 'lone surrogate escaped', body: '{"name":"\\ud800","email":"\\udfff@example.com"}' },
    { label: 'deep nesting (5000)', body: deepText(5000) },
    { label: 'deep nesting (40 objects)', body: JSON.stringify(deep(40)) },
    { label: 'oversized body', body: JSON.stringify({ name: 'x'.repeat(1_050_000) }) },
    { label: 'gzip marked, not gzip', body: '{"name":"a"}', headers: { 'Content-Encoding': 'gzip' } },
    { label: 'deflate marked, not deflate', body: '{"name":"a"}', headers: { 'Content-Encoding': 'deflate' } },
    { label: 'br marked, not br', body: '{"name":"a"}', headers: { 'Content-Encoding': 'br' } },
    { label: 'unknown encoding', body: '{"name":"a"}', headers: { 'Content-Encoding': 'zstd-ish' } },
    { label: 'gzip of garbage JSON', body: zlib.gzipSync('{"name": '), headers: { 'Content-Encoding': 'gzip' } },
    { label: 'gzip bomb (oversized once inflated)', body: zlib.gzipSync(JSON.stringify({ name: ' '.repeat(1_500_000) })), headers: { 'Content-Encoding': 'gzip' } },
    { label: 'truncated gzip', body: zlib.gzipSync('{"name":"a"}').subarray(0, 12), headers: { 'Content-Encoding': 'gzip' } },
    { label: 'latin1 charset', body: Buffer.from('{"name":"caf\xe9"}', 'latin1'), headers: { 'Content-Type': 'application/json; charset=latin1' } },
    { label: 'unknown charset', body: '{"name":"a"}', headers: { 'Content-Type': 'application/json; charset=klingon' } },
    { label: 'invalid UTF-8 bytes', body: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]) },
  ];
  for (const [label, value] of VALUES) {
    probes.push(json(`every field: ${label}`, Object.fromEntries(FIELDS.map((f) => [f, value]))));
    // Nested where schemas expect objects and lists.
    probes.push(json(`nested: ${label}`, { targetingLocation: { city: value, state: value, radius: value }, targetingInterests: [{ id: value, name: value, enabled: value }], images: [value], carouselImages: [value] }));
  }
  return probes;
}

const PARAM_VALUES = ['%00', '%F0%28%8C%28', '%ED%A0%80', 'abc', '-1', '0', '1.5', '99999999999999999999', '..%2F..%2Fapi%2Fready', 'x'.repeat(3000)];

function fillPath(path: string, value: string): string {
  return path.replace(/:[A-Za-z0-9_]+(\([^)]*\))?[?*+]?/g, value);
}

const counts = { requests: 0, serverErrors: 0 };
const failures: string[] = [];

async function send(method: string, url: string, probe?: Probe) {
  const session = t.newSession();
  let req = session[method.toLowerCase() as 'post'](url);
  if (probe) {
    req = req.set('Content-Type', probe.headers?.['Content-Type'] ?? 'application/json');
    for (const [k, v] of Object.entries(probe.headers ?? {})) if (k !== 'Content-Type') req = req.set(k, v);
    req = req.send(probe.body as string);
  }
  let status: number;
  let text = '';
  try {
    const res = await req;
    status = res.status;
    text = res.text;
  } catch (err) {
    // A dropped connection counts as a server failure too.
    status = 599;
    text = String(err);
  }
  counts.requests++;
  // The one documented 503: Google login without a configured client says so (issue 10), whatever the input.
  const documentedUnavailable = status === 503 && /"code":"agents\.google_login_disabled"/.test(text);
  if (status >= 500 && !documentedUnavailable) {
    counts.serverErrors++;
    failures.push(`${status} ${method} ${url.slice(0, 120)} ${probe?.label ?? ''} → ${text.slice(0, 200)}`);
  }
}

describe('fuzzing every mounted route', () => {
  it('answers odd input with 4xx, never 5xx', async () => {
    const routes = mountedRoutes(app);
    // The routers really were found: the wizard's routes are among them.
    expect(routes).toEqual(expect.arrayContaining([{ method: 'POST', path: '/api/agents' }, { method: 'POST', path: '/api/targeting/preview' }]));
    const probes = bodyProbes();
    for (const route of routes) {
      // Each route starts with fresh rate-limit budgets: a 429 would hide what the handler does.
      await t.db('rate_limits').delete();
      const hasParams = route.path.includes(':');
      if (hasParams) for (const v of PARAM_VALUES) await send(route.method, fillPath(route.path, v), route.method === 'GET' ? undefined : probes[8]);
      const url = fillPath(route.path, '1');
      if (route.method === 'GET') {
        await send('GET', `${url}?page=-1&limit=abc&q=%00&x[y][z]=1&toString=1&__proto__[a]=1`);
        await send('GET', `${url}?q=${'%F0%28'.repeat(50)}`);
        continue;
      }
      for (const probe of probes) await send(route.method, url, probe);
    }
    const report = { routes: routes.length, ...counts };
    // eslint-disable-next-line no-console
    console.log(`fuzz: ${report.routes} routes, ${report.requests} requests, ${report.serverErrors} answered 5xx`);
    if (process.env.FUZZ_REPORT) fs.writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ ...report, failures }, null, 2));
    expect(failures).toEqual([]);
    expect(counts.requests).toBeGreaterThan(routes.length * 10);
  }, 600_000);
});

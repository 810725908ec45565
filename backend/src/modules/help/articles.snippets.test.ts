import { execFileSync, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { signedInBrowser } from '../../../test/factories';
import { articleFor } from './articles';

/*
 * The verification snippets of the Custom Webhook Setup article, run as written against a real test
 * delivery: signed by the notifications module's delivery path (POST /api/agents/:id/test-webhook) and
 * caught by a local receiver. They must accept it and reject a tampered body or a wrong secret.
 */

interface Delivery {
  body: string;
  headers: Record<string, string>;
  secret: string;
}

/** The code blocks tagged `<lang> verify` in the article. */
function snippet(lang: 'js' | 'python' | 'php'): string {
  const md = articleFor('custom-webhook')!.markdown;
  const blocks = [...md.matchAll(/```(\w+) verify\n([\s\S]*?)```/g)].filter((m) => m[1] === lang).map((m) => m[2]);
  expect(blocks).toHaveLength(1);
  return blocks[0];
}

// Each harness feeds the snippet's function one case per line of stdin and prints true/false per case.
const HARNESS = {
  js: `\nconst cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));\nfor (const c of cases) console.log(verifyWebhook(c.body, c.headers, c.secret));\n`,
  python: `\nimport json, sys\nfor c in json.load(sys.stdin):\n    print("true" if verify_webhook(c["body"].encode("utf-8"), c["headers"], c["secret"]) else "false")\n`,
  php: `\n$cases = json_decode(file_get_contents('php://stdin'), true);\nforeach ($cases as $c) echo (verify_webhook($c['body'], $c['headers'], $c['secret']) ? 'true' : 'false'), "\\n";\n`,
};

const RUNTIME = { js: process.execPath, python: 'python3', php: 'php' } as const;

function run(lang: keyof typeof HARNESS, cases: Delivery[]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'help-snippet-'));
  const file = path.join(dir, `verify.${lang === 'python' ? 'py' : lang}`);
  fs.writeFileSync(file, snippet(lang) + HARNESS[lang]);
  const out = execFileSync(RUNTIME[lang], [file], { input: JSON.stringify(cases), encoding: 'utf8' });
  return out.trim().split('\n');
}

const has = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;

/** A local endpoint that records what it receives (the notifications module's own receiver is behind its door). */
async function receiver() {
  const received: { body: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: () => `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

let t: TestContext;
const deliveries: Delivery[] = [];

/** One real test send to a local receiver, signed with the agent's secret (generated, or typed). */
async function signedDelivery(typedSecret?: string): Promise<Delivery> {
  const rx = await receiver();
  try {
    const { session, agent } = await signedInBrowser(t, t.newSession());
    const saved = await session
      .put(`/api/agents/${agent.id}/notification-settings`)
      .send({ webhookUrl: rx.url(), ...(typedSecret ? { webhookSecret: typedSecret } : {}) })
      .expect(200);
    await session.post(`/api/agents/${agent.id}/test-webhook`).send({ webhookType: 'custom' }).expect(200);
    const [r] = rx.received;
    const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
    return { body: r.body, headers, secret: typedSecret ?? saved.body.generatedWebhookSecret };
  } finally {
    await rx.close();
  }
}

beforeAll(async () => {
  t = await createTestContext({ env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'help-snippets-')) } });
  deliveries.push(await signedDelivery(), await signedDelivery('my typed secret 123'));
});
afterAll(() => t.close());

/** For each delivery: as received (true), body tampered (false), wrong secret (false), old timestamp (false). */
function cases(): { cases: Delivery[]; expected: string[] } {
  const all: Delivery[] = [];
  for (const d of deliveries) {
    expect(d.headers['webhook-signature']).toMatch(/^v1,/);
    all.push(d);
    all.push({ ...d, body: d.body.replace('Test Buyer', 'Test Buyes') });
    all.push({ ...d, secret: d.secret.startsWith('whsec_') ? 'whsec_' + Buffer.from('another secret key!!').toString('base64') : 'another secret' });
    all.push({ ...d, headers: { ...d.headers, 'webhook-timestamp': String(Number(d.headers['webhook-timestamp']) - 3600) } });
  }
  return { cases: all, expected: deliveries.flatMap(() => ['true', 'false', 'false', 'false']) };
}

describe('webhook verification snippets (Node.js)', () => {
  it('verify our signed delivery and reject a tampered body, a wrong secret and an old timestamp', () => {
    const { cases: c, expected } = cases();
    expect(run('js', c)).toEqual(expected);
  });
});

// Python and PHP run when their runtime is on this machine; the describe's name says which case applies.
(has('python3') ? describe : describe.skip)(`webhook verification snippets (Python${has('python3') ? '' : ': python3 is NOT installed here, not run'})`, () => {
  it('verify our signed delivery and reject a tampered body, a wrong secret and an old timestamp', () => {
    const { cases: c, expected } = cases();
    expect(run('python', c)).toEqual(expected);
  });
});

if (has('php')) {
  describe('webhook verification snippets (PHP)', () => {
    it('verify our signed delivery and reject a tampered body, a wrong secret and an old timestamp', () => {
      const { cases: c, expected } = cases();
      expect(run('php', c)).toEqual(expected);
    });
  });
} else {
  // Said plainly in the test's name: without php the snippet cannot run, so only its method is checked.
  describe('webhook verification snippets (PHP): php is NOT installed on this machine, the snippet is not run', () => {
    it('signs id.timestamp.body with HMAC-SHA256 keyed by the base64 after whsec_ and compares in constant time', () => {
      const php = snippet('php');
      expect(php).toContain('function verify_webhook(string $rawBody, array $headers, string $secret): bool');
      expect(php).toContain(`hash_hmac('sha256', "$id.$timestamp.$rawBody", $key, true)`);
      expect(php).toContain("base64_decode(substr($secret, 6))");
      expect(php).toContain('hash_equals($expected, $signature)');
    });
  });
}

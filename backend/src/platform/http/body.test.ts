import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { createApp } from '../../app';
import { createLogger } from '../logger';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const json = (path: string, body: string, headers: Record<string, string> = {}) =>
  t.request.post(path).set({ 'Content-Type': 'application/json', ...headers }).send(body);

describe('the JSON body layer', () => {
  it('refuses top-level keys that shadow Object.prototype members (toString, constructor, valueOf)', async () => {
    for (const key of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      const res = await json('/api/targeting/preview', `{"city":"Miami","state":"FL","listingPrice":"450000","${key}":"x"}`).expect(400);
      expect(res.body).toEqual({ message: `The request body may not have a key named "${key}"`, code: 'request.forbidden_key' });
    }
    // The JSON parser itself refuses __proto__.
    await json('/api/targeting/preview', '{"city":"Miami","state":"FL","listingPrice":"450000","__proto__":{"admin":true}}').expect(400);
  });

  it('refuses a NUL character in any text field', async () => {
    const res = await json('/api/agents', JSON.stringify({ name: 'Dana\u0000', state: 'FL', manualEntry: true })).expect(400);
    expect(res.body.code).toBe('request.control_character');
    await json('/api/targeting/preview', JSON.stringify({ city: 'Mia\u0000mi', state: 'FL', listingPrice: '1' })).expect(400);
  });

  it('refuses lone UTF-16 surrogates', async () => {
    const res = await json('/api/mls/search-agent', '{"name":"Emily \\ud800","state":"TX"}').expect(400);
    expect(res.body).toEqual({ message: 'The request contains text that is not valid Unicode (a lone UTF-16 surrogate)', code: 'request.invalid_unicode' });
  });

  it('refuses other control characters with a field message (contracts text schema)', async () => {
    const res = await json('/api/agents', JSON.stringify({ name: 'Dana\u0007', state: 'FL', manualEntry: true })).expect(400);
    expect(res.body.fields).toEqual({ name: 'Must not contain control characters' });
  });

  it('refuses deep nesting', async () => {
    const res = await json('/api/targeting/preview', '['.repeat(10_000) + ']'.repeat(10_000)).expect(400);
    expect(res.body.code).toBe('request.too_deep');
  });

  it('a body marked gzip (or deflate, br) that is not: 400', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await json('/api/targeting/preview', '{"city":"Miami"}', { 'Content-Encoding': encoding }).expect(400);
      expect(res.body).toEqual({ message: 'The request body does not match its Content-Encoding', code: 'request.bad_encoding' });
    }
  });

  it('real gzip is read; an oversized gzip body is a 413 that leaves no dead keep-alive connection', async () => {
    const app = createApp({ config: t.config, db: t.db, logger: createLogger('silent'), queue: t.queue });
    const server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const port = (server.address() as AddressInfo).port;
    const request = (body: Buffer, headers: Record<string, string>) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/api/targeting/preview', method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...headers } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.setTimeout(10_000, () => req.destroy(new Error('timed out: dead connection')));
        req.end(body);
      });
    try {
      const gz = zlib.gzipSync(JSON.stringify({ city: 'Miami', state: 'FL', listingPrice: '450000' }));
      expect((await request(gz, { 'Content-Encoding': 'gzip' })).status).toBe(200);
      const bomb = zlib.gzipSync(JSON.stringify({ city: 'x'.repeat(20_000_000) }));
      const big = await request(bomb, { 'Content-Encoding': 'gzip' });
      expect(big.status).toBe(413);
      expect(big.connection).toBe('close');
      // The next request through the same agent gets a working connection and a real answer.
      for (let i = 0; i < 3; i++) {
        const next = await request(Buffer.from(JSON.stringify({ city: 'Miami', state: 'FL', listingPrice: '450000' })), {});
        expect(next.status).toBe(200);
      }
    } finally {
      agent.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});

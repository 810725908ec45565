import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import Koa from 'koa';
import { CachedJson, compression, sendJson } from './compression';

const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** The same JSON sent two ways behind the app's compression layer: compressed per request, and from a cache entry. */
function twoRoutes(text: string, opts: { cacheControl?: string; etag?: string } = {}) {
  const cached = new CachedJson(text);
  const app = new Koa();
  app.use(compression());
  app.use(async (ctx) => {
    if (opts.cacheControl) ctx.set('Cache-Control', opts.cacheControl);
    if (opts.etag) {
      ctx.set('ETag', opts.etag);
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
    }
    if (ctx.path === '/live') {
      ctx.type = 'json';
      ctx.body = text;
    } else {
      await sendJson(ctx, cached);
    }
  });
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  servers.push(server);
  return { cached, request: server };
}

function decode(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString();
  if (encoding === 'deflate') return zlib.inflateSync(body).toString();
  return body.toString();
}

/** The raw answer: status, the headers that matter here, and the body as sent (not decoded). */
async function raw(server: http.Server, method: 'get' | 'head', path: string, headers: Record<string, string>) {
  if (!server.listening) await new Promise((r) => server.once('listening', r));
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: method.toUpperCase(), path, headers }, resolve).on('error', reject).end(),
  );
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const encoding = res.headers['content-encoding'];
  return { status: res.statusCode, encoding, vary: res.headers.vary, etag: res.headers.etag, type: res.headers['content-type'], body, text: method === 'head' ? '' : decode(encoding, body) };
}

const big = JSON.stringify({ listings: Array.from({ length: 40 }, (_, i) => ({ id: i, address: `${i} Palm Ave`, city: 'Tampa', price: String(400000 + i) })) });

describe('sendJson (cached JSON, compressed once per encoding)', () => {
  it.each([
    ['gzip, deflate, br'],
    ['gzip, deflate, br, zstd'],
    ['gzip'],
    ['deflate'],
    ['br;q=0, gzip'],
    ['gzip;q=0.5, br;q=0.8'],
    ['identity'],
    ['*'],
    [''],
  ])('answers Accept-Encoding %p as the compression layer does', async (accept) => {
    const { request } = twoRoutes(big);
    const headers: Record<string, string> = accept ? { 'accept-encoding': accept } : {};
    const live = await raw(request, 'get', '/live', headers);
    const cached = await raw(request, 'get', '/cached', headers);
    expect({ status: cached.status, encoding: cached.encoding, vary: cached.vary, type: cached.type, text: cached.text }).toEqual({
      status: live.status,
      encoding: live.encoding,
      vary: live.vary,
      type: live.type,
      text: live.text,
    });
    expect(cached.text).toBe(big);
  });

  it('sends small answers, HEAD and no-transform answers uncompressed, as the layer does', async () => {
    const small = twoRoutes('{"ok":true}');
    for (const path of ['/live', '/cached']) expect((await raw(small.request, 'get', path, { 'accept-encoding': 'br' })).encoding).toBeUndefined();
    const noTransform = twoRoutes(big, { cacheControl: 'no-store, no-transform' });
    for (const path of ['/live', '/cached']) expect((await raw(noTransform.request, 'get', path, { 'accept-encoding': 'br' })).encoding).toBeUndefined();
    const head = twoRoutes(big);
    const [live, cached] = [await raw(head.request, 'head', '/live', { 'accept-encoding': 'br' }), await raw(head.request, 'head', '/cached', { 'accept-encoding': 'br' })];
    expect({ encoding: cached.encoding, status: cached.status }).toEqual({ encoding: live.encoding, status: live.status });
  });

  it('keeps ETag and conditional answers as they are', async () => {
    const { request } = twoRoutes(big, { etag: '"v1"' });
    const cached = await raw(request, 'get', '/cached', { 'accept-encoding': 'gzip, deflate, br' });
    expect({ etag: cached.etag, encoding: cached.encoding }).toEqual({ etag: '"v1"', encoding: 'br' });
    const notModified = await raw(request, 'get', '/cached', { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': '"v1"' });
    expect({ status: notModified.status, encoding: notModified.encoding, bytes: notModified.body.length }).toEqual({ status: 304, encoding: undefined, bytes: 0 });
  });

  it('compresses once per encoding asked for, and sends the stored bytes after that', async () => {
    const { cached, request } = twoRoutes(big);
    const brotli = jest.spyOn(zlib, 'brotliCompress');
    const gzip = jest.spyOn(zlib, 'gzip');
    try {
      const first = await raw(request, 'get', '/cached', { 'accept-encoding': 'gzip, deflate, br' });
      const again = await Promise.all(Array.from({ length: 5 }, () => raw(request, 'get', '/cached', { 'accept-encoding': 'gzip, deflate, br' })));
      expect(again.every((a) => a.body.equals(first.body))).toBe(true);
      expect(cached.encodings).toEqual(['br']);
      await raw(request, 'get', '/cached', { 'accept-encoding': 'gzip' });
      await raw(request, 'get', '/cached', { 'accept-encoding': 'gzip' });
      expect(cached.encodings).toEqual(['br', 'gzip']);
      expect({ brotli: brotli.mock.calls.length, gzip: gzip.mock.calls.length }).toEqual({ brotli: 1, gzip: 1 });
      // Without compression asked for, nothing is compressed at all.
      expect((await raw(request, 'get', '/cached', {})).text).toBe(big);
      expect(cached.encodings).toEqual(['br', 'gzip']);
    } finally {
      brotli.mockRestore();
      gzip.mockRestore();
    }
  });
});

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Koa from 'koa';
import supertest from 'supertest';
import { serveStatic } from './static';

const JS = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
let root: string;
let request: ReturnType<typeof supertest>;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'la-static-'));
  fs.mkdirSync(path.join(root, 'assets'));
  // The build prerenders `/` into index.html and keeps the empty shell beside it.
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>prerendered landing</title>');
  fs.writeFileSync(path.join(root, 'shell.html'), '<!doctype html><title>app shell</title>');
  const asset = path.join(root, 'assets', 'main-Ab12Cd34.js');
  fs.writeFileSync(asset, JS);
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(JS));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(JS));

  const app = new Koa();
  const site = serveStatic([{ prefix: '/', root, spa: true, isRoute: (p) => p === '/' || p.startsWith('/create/') || p === '/dashboard' }]);
  app.use(site.files);
  app.use(async (ctx, next) => {
    // A server route below the files and above the app shell.
    if (ctx.path === '/listing/FL1') ctx.body = 'server-rendered listing';
    else await next();
  });
  app.use(site.appShell);
  request = supertest(app.callback());
  server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let server: http.Server;
/** The bytes as sent (supertest and fetch would decompress them). */
function getRaw(p: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('serveStatic', () => {
  it('sends the brotli file when the browser accepts br, cached as immutable', async () => {
    const res = await getRaw('/assets/main-Ab12Cd34.js', 'gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(JS);
  });

  it('sends the gzip file to a browser without brotli, and the plain file to one without either', async () => {
    const gz = await getRaw('/assets/main-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(JS);
    const plain = await getRaw('/assets/main-Ab12Cd34.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(JS);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers / with the prerendered landing and client routes with the shell, after the server routes had their turn; both revalidated', async () => {
    const root = await request.get('/').set('Accept', 'text/html').expect(200);
    expect(root.headers['cache-control']).toBe('no-cache');
    expect(root.text).toContain('prerendered landing');
    expect((await request.get('/?step=3').set('Accept', 'text/html').expect(200)).text).toContain('app shell');
    const route = await request.get('/create/step-2').set('Accept', 'text/html').expect(200);
    expect(route.text).toContain('app shell');
    expect(route.headers['cache-control']).toBe('no-cache');
    await request.get('/listing/FL1').expect(200, 'server-rendered listing');
  });

  it('answers a path that is no client route with the app shell and a 404 status, not a soft 404', async () => {
    for (const p of ['/this-page-does-not-exist', '/dashboard/x']) {
      const res = await request.get(p).set('Accept', 'text/html').expect(404);
      expect(res.text).toContain('app shell');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    await request.get('/dashboard').set('Accept', 'text/html').expect(200);
  });

  it('answers a missing file with a 404, not the app shell', async () => {
    await request.get('/assets/missing-Zz99Yy88.js').set('Accept', 'text/html').expect(404);
  });
});

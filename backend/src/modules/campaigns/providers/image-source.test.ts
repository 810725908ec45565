import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AdPlatformError } from './ad-platform';
import { DEMO_PHOTOS_DIR, loadImageBytes } from './image-source';

let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/photo.jpg') return res.end(Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]));
    if (req.url === '/moved') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (req.url === '/objects/uploads/0b7e6c1a-2f57-4d8e-9a8b-3c1d2e4f5a6b') return res.end(Buffer.from('upload-bytes'));
    if (req.url === '/api/ready') return res.end('{"status":"ready"}');
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const refused = async (p: Promise<unknown>, message: RegExp, transient = false) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AdPlatformError);
  expect((err as AdPlatformError).message).toMatch(message);
  expect((err as AdPlatformError).transient).toBe(transient);
};

describe('ad image bytes', () => {
  it('reads demo photos from disk and uploads from our own server', async () => {
    const opts = { selfOrigin: origin, allowLoopback: false };
    expect(await loadImageBytes('/demo-mls/photos/exterior-01.jpg', opts)).toEqual(fs.readFileSync(path.join(DEMO_PHOTOS_DIR, 'exterior-01.jpg')));
    expect((await loadImageBytes('/objects/uploads/0b7e6c1a-2f57-4d8e-9a8b-3c1d2e4f5a6b', opts)).toString()).toBe('upload-bytes');
    // Paths resolve strictly to stored uploads: never to another route of our own server.
    for (const sneaky of [
      '/objects/uploads/../../api/ready',
      '/objects/uploads/%2e%2e/%2e%2e/api/ready',
      '/objects/uploads/0b7e6c1a-2f57-4d8e-9a8b-3c1d2e4f5a6b/../../../api/ready',
      '/objects/uploads/0b7e6c1a-2f57-4d8e-9a8b-3c1d2e4f5a6b?x=/../api/ready',
      '/objects/uploads/abc',
    ]) {
      await refused(loadImageBytes(sneaky, opts), /is not a stored upload/);
    }
    await refused(loadImageBytes('/demo-mls/photos/../Member.json', opts), /not a demo photo/);
    await refused(loadImageBytes('/api/admin/anything', opts), /not an upload or a demo photo/);
  });

  it('fetches a foreign URL as binary, and refuses private, loopback and metadata addresses', async () => {
    expect([...(await loadImageBytes(`${origin}/photo.jpg`, { selfOrigin: 'https://app.example.com', allowLoopback: true }))]).toEqual([0xff, 0xd8, 0xff, 0x00, 0x01]);
    const strict = { selfOrigin: 'https://app.example.com', allowLoopback: false };
    await refused(loadImageBytes(`${origin}/photo.jpg`, strict), /forbidden address/);
    await refused(loadImageBytes('http://169.254.169.254/latest/meta-data/', strict), /forbidden address/);
    await refused(loadImageBytes('http://10.0.0.8/x.jpg', strict), /forbidden address/);
    await refused(loadImageBytes('http://localhost:61999/x.jpg', strict), /forbidden address/);
    // A redirect to the metadata address is checked too.
    await refused(loadImageBytes(`${origin}/moved`, { selfOrigin: 'https://app.example.com', allowLoopback: true }), /forbidden address/);
  });

  it('a missing image is final; the URL must be http(s)', async () => {
    await refused(loadImageBytes(`${origin}/nope.jpg`, { selfOrigin: origin, allowLoopback: true }), /answered 404/);
    await refused(loadImageBytes('ftp://example.com/x.jpg', { selfOrigin: origin, allowLoopback: true }), /not http\(s\)/);
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import sharp from 'sharp';
import { MAX_UPLOAD_BYTES, UPLOAD_NOT_IMAGE_MESSAGE, UPLOAD_TOO_LARGE_MESSAGE, objectPathFromUploadUrl } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { createApp } from '../../app';
import { createLogger } from '../../platform/logger';
import { signLocalUpload } from './providers/local-disk';
import { sweepPendingUploadsJob } from './jobs/sweep-pending-uploads.job';
import { CookieKeys } from '../../platform/http/cookie-keys';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestContext;
/** A browser session that owns an agent: only such a session gets upload slots. */
let owner: ReturnType<TestContext['newSession']>;
let dataDir: string;
let uploadsDir: string;

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-test-'));
  uploadsDir = path.join(dataDir, 'uploads');
  t = await createTestContext({ env: { DATA_DIR: dataDir } });
  owner = await agentSession();
});
// The tests share one browser session: each starts with fresh quotas (the quota test is below).
afterEach(() => t.db('rate_limits').delete());

/** The agent each browser made in the wizard (the browser has its draft access). */
const agentIds = new WeakMap<object, number>();
async function agentSession(client: ReturnType<TestContext['newSession']> = t.newSession()) {
  const { body } = await client.post('/api/agents').send({ name: 'Dana Whitfield', state: 'FL', manualEntry: true }).expect(201);
  agentIds.set(client, body.id);
  return client;
}
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  // nock patches node's shared net/http modules: unpatch them, or the next test file in this worker inherits a dead interceptor.
  nock.cleanAll();
  nock.restore();
});

function png(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } }).png().toBuffer();
}

function jpeg(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer();
}

/** A valid PNG padded with private ancillary chunks (which decoders skip) to exactly `size` bytes. */
async function pngOfSize(size: number): Promise<Buffer> {
  const base = await png(16, 16);
  const iend = base.subarray(base.length - 12);
  const chunks: Buffer[] = [base.subarray(0, base.length - 12)];
  let remaining = size - base.length;
  while (remaining > 0) {
    const dataLength = Math.min(remaining - 12, 1024 * 1024);
    const typeAndData = Buffer.concat([Buffer.from('prVt', 'latin1'), Buffer.alloc(dataLength, 7)]);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(dataLength);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typeAndData));
    chunks.push(header, typeAndData, crc);
    remaining -= dataLength + 12;
  }
  chunks.push(iend);
  return Buffer.concat(chunks);
}

/** Files kept by the local provider (originals), ignoring the variants cache and the empty incoming folder. */
function storedFiles(): string[] {
  const list = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      : [];
  return list(uploadsDir).filter((f) => !f.startsWith(path.join(uploadsDir, 'variants')));
}

/** POST /api/objects/upload; returns the upload URL, its path+query (for supertest) and the upload id. */
async function newUpload(client: TestContext['request'] | ReturnType<TestContext['newSession']> = owner) {
  const res = await client.post('/api/objects/upload').expect(200);
  const url = new URL(res.body.uploadURL);
  const id = url.pathname.split('/').pop()!;
  return { uploadURL: res.body.uploadURL as string, target: url.pathname + url.search, id, body: res.body };
}

describe('POST /api/objects/upload', () => {
  it('hands slots only to a session that owns an agent, within a quota per session', async () => {
    const res = await t.newSession().post('/api/objects/upload').expect(403);
    expect(res.body).toEqual({ message: 'Please enter your name and state before adding photos.', code: 'uploads.agent_required' });
    await t.request.post('/api/objects/upload').expect(403);
    const browser = await agentSession();
    const { id } = await newUpload(browser);
    const agentId = agentIds.get(browser)!;
    expect((await t.db('uploads').where({ id }).first()).agentId).toBe(agentId);
    await t.db('rate_limits').delete();
    for (let i = 0; i < 40; i++) await browser.post('/api/objects/upload').expect(200);
    expect((await browser.post('/api/objects/upload').expect(429)).body.code).toBe('rate_limited');
    await t.db('rate_limits').delete();
  });

  it('strips EXIF (GPS included) from a stored image', async () => {
    const withGps = await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 10, g: 200, b: 90 } } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Snapper 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '27/1 56/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '82/1 27/1 0/1' } })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const { target, id } = await newUpload();
    const put = await t.request.put(target).set('Content-Type', 'image/jpeg').send(withGps).expect(200);
    const served = (await t.request.get(`/objects/uploads/${id}`).buffer(true).expect(200)).body as Buffer;
    expect(put.body.sizeBytes).toBe(served.length);
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect([meta.width, meta.height]).toEqual([64, 32]);
  });

  it('returns a signed, expiring upload URL on our own origin whose last segment names the stored path', async () => {
    const before = Date.now();
    const { uploadURL, id, body } = await newUpload();
    expect(Object.keys(body)).toEqual(['uploadURL']);
    // The origin is the configured one (no PUBLIC_URL in development: this server on localhost), never the request's Host.
    expect(uploadURL).toMatch(/^http:\/\/localhost:3000\/api\/objects\/local\/[0-9a-f-]{36}\?expires=\d+&sig=[0-9a-f]{64}$/);
    const spoofed = await owner.post('/api/objects/upload').set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example').expect(200);
    expect(spoofed.body.uploadURL).toMatch(/^http:\/\/localhost:3000\/api\/objects\/local\//);
    expect(id).toMatch(UUID);
    expect(objectPathFromUploadUrl(uploadURL)).toBe(`/objects/uploads/${id}`);

    const row = await t.db('uploads').where({ id }).first();
    expect(row).toMatchObject({ provider: 'local', status: 'pending', objectPath: `/objects/uploads/${id}`, contentType: null, sizeBytes: null });
    const expires = Number(new URL(uploadURL).searchParams.get('expires'));
    expect(row.expiresAt.getTime()).toBe(expires * 1000);
    // 15 minutes from the request.
    expect(expires * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 15 * 60 * 1000);
    expect(expires * 1000).toBeLessThanOrEqual(Date.now() + 15 * 60 * 1000);
  });

  it('records a one-way tag of the browser session, never the session id itself', async () => {
    const browser = t.newSession();
    await browser.post('/api/agents').send({ name: 'Dana Whitfield', state: 'FL', manualEntry: true }).expect(201);
    const { id } = await newUpload(browser);
    const row = await t.db('uploads').where({ id }).first();
    const sessionRow = await t.db('sessions').orderBy('updatedAt', 'desc').first('sid');
    expect(row.sessionId).toBe(crypto.createHash('sha256').update(sessionRow.sid).digest('hex'));
    expect(row.sessionId).not.toBe(sessionRow.sid);

  });
});

describe('the local upload flow', () => {
  it('stores a PNG put to the signed URL and serves it with immutable caching', async () => {
    const image = await png();
    const { target, id } = await newUpload();
    const put = await t.request.put(target).set('Content-Type', 'image/png').send(image).expect(200);
    expect(put.body).toEqual({ objectPath: `/objects/uploads/${id}`, contentType: 'image/png', sizeBytes: image.length });

    const row = await t.db('uploads').where({ id }).first();
    expect(row).toMatchObject({ status: 'stored', contentType: 'image/png', sizeBytes: image.length });
    expect(row.storedAt).toBeInstanceOf(Date);
    expect(fs.readFileSync(path.join(uploadsDir, id)).equals(image)).toBe(true);

    const res = await t.request.get(`/objects/uploads/${id}`).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-length']).toBe(String(image.length));
    expect(res.headers.etag).toBe(`"${id}"`);
    expect(Buffer.compare(res.body as Buffer, image)).toBe(0);

    const again = await t.request.get(`/objects/uploads/${id}`).set('If-None-Match', res.headers.etag).expect(304);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('judges the type by the bytes, not by the declared Content-Type', async () => {
    const image = await jpeg();
    const { target, id } = await newUpload();
    const put = await t.request.put(target).set('Content-Type', 'image/png').send(image).expect(200);
    expect(put.body.contentType).toBe('image/jpeg');
    const res = await t.request.get(`/objects/uploads/${id}`).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
  });

  it('serves ?w= variants resized to that width: WebP when accepted, JPEG otherwise, computed once', async () => {
    const image = await png(800, 600);
    const { target, id } = await newUpload();
    await t.request.put(target).set('Content-Type', 'image/png').send(image).expect(200);

    const webp = await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/avif,image/webp,*/*;q=0.8').buffer(true).expect(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.headers.vary).toMatch(/Accept/);
    expect(webp.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(webp.headers['x-content-type-options']).toBe('nosniff');
    expect(webp.headers.etag).toBe(`"${id}-w160.webp"`);
    const meta = await sharp(webp.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 160, height: 120 });
    expect((webp.body as Buffer).length).toBeLessThan(image.length);

    const cached = path.join(uploadsDir, 'variants', id, 'w160.webp');
    const first = fs.statSync(cached);
    const second = await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/webp').buffer(true).expect(200);
    expect(Buffer.compare(second.body as Buffer, webp.body as Buffer)).toBe(0);
    expect(fs.statSync(cached).mtimeMs).toBe(first.mtimeMs);
    expect(fs.statSync(cached).ino).toBe(first.ino);

    const jpg = await t.request.get(`/objects/uploads/${id}?w=320`).set('Accept', 'image/png,image/*;q=0.8').buffer(true).expect(200);
    expect(jpg.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(jpg.body as Buffer).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });

    await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/webp').set('If-None-Match', `"${id}-w160.webp"`).expect(304);
  });

  it('never enlarges a small original', async () => {
    const { target, id } = await newUpload();
    await t.request.put(target).set('Content-Type', 'image/png').send(await png(100, 50)).expect(200);
    const res = await t.request.get(`/objects/uploads/${id}?w=640`).set('Accept', 'image/webp').buffer(true).expect(200);
    expect(await sharp(res.body as Buffer).metadata()).toMatchObject({ width: 100, height: 50 });
  });

  it('keeps an animated GIF animated as a WebP variant; the JPEG variant takes the first frame', async () => {
    const frames = await Promise.all(['#f00', '#0f0', '#00f'].map((c) => sharp({ create: { width: 200, height: 100, channels: 3, background: c } }).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    const { target, id } = await newUpload();
    expect((await t.request.put(target).set('Content-Type', 'image/gif').send(gif).expect(200)).body.contentType).toBe('image/gif');

    const webp = await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/webp').buffer(true).expect(200);
    expect(await sharp(webp.body as Buffer).metadata()).toMatchObject({ format: 'webp', width: 160, pages: 3 });
    const jpg = await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/jpeg').buffer(true).expect(200);
    const jpgMeta = await sharp(jpg.body as Buffer).metadata();
    expect(jpgMeta).toMatchObject({ format: 'jpeg', width: 160, height: 80 });
    expect(jpgMeta.pages ?? 1).toBe(1);
  });

  it('accepts an image of exactly 10 MB', async () => {
    const image = await pngOfSize(MAX_UPLOAD_BYTES);
    expect(image.length).toBe(10485760);
    const { target, id } = await newUpload();
    const put = await t.request.put(target).set('Content-Type', 'image/png').send(image).expect(200);
    expect(put.body).toMatchObject({ contentType: 'image/png', sizeBytes: MAX_UPLOAD_BYTES });
    expect(fs.statSync(path.join(uploadsDir, id)).size).toBe(MAX_UPLOAD_BYTES);
  });
});

describe('what the local PUT refuses', () => {
  it('a non-image declared as an image: 415 and nothing kept', async () => {
    const before = storedFiles();
    const { target, id } = await newUpload();
    const res = await t.request.put(target).set('Content-Type', 'image/jpeg').send(Buffer.from('<html><script>alert(1)</script></html>')).expect(415);
    expect(res.body).toEqual({ message: UPLOAD_NOT_IMAGE_MESSAGE, code: 'uploads.not_an_image' });
    expect(storedFiles()).toEqual(before);
    expect((await t.db('uploads').where({ id }).first()).status).toBe('pending');
    await t.request.get(`/objects/uploads/${id}`).expect(404);
  });

  it('SVG, TIFF and an empty body are not accepted images', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).tiff().toBuffer();
    const before = storedFiles();
    for (const [type, body] of [['image/svg+xml', svg], ['image/tiff', tiff], ['image/png', Buffer.alloc(0)]] as const) {
      const { target } = await newUpload();
      const res = await t.request.put(target).set('Content-Type', type).send(body).expect(415);
      expect(res.body.code).toBe('uploads.not_an_image');
    }
    expect(storedFiles()).toEqual(before);
  });

  it('a truncated image: 415', async () => {
    const image = await jpeg(1200, 900);
    const { target } = await newUpload();
    const res = await t.request.put(target).set('Content-Type', 'image/jpeg').send(image.subarray(0, Math.floor(image.length / 3))).expect(415);
    expect(res.body.code).toBe('uploads.not_an_image');
  });

  it('a JSON body (taken by the body parser): 415', async () => {
    const { target, id } = await newUpload();
    const res = await t.request.put(target).set('Content-Type', 'application/json').send({ image: 'nope' }).expect(415);
    expect(res.body.code).toBe('uploads.not_an_image');
    expect((await t.db('uploads').where({ id }).first()).status).toBe('pending');
  });

  it('a body of 10 MB + 1 byte: 413 and nothing kept', async () => {
    const before = storedFiles();
    const { target, id } = await newUpload();
    const body = await pngOfSize(MAX_UPLOAD_BYTES + 1);
    const res = await t.request.put(target).set('Content-Type', 'image/png').send(body).expect(413);
    expect(res.body).toEqual({ message: UPLOAD_TOO_LARGE_MESSAGE, code: 'uploads.too_large' });
    expect(storedFiles()).toEqual(before);
    expect((await t.db('uploads').where({ id }).first()).status).toBe('pending');
  });

  it('a streamed (chunked, no Content-Length) body past 10 MB: 413, the partial file deleted', async () => {
    const logger = createLogger('silent');
    const server = http.createServer(createApp({ config: t.config, db: t.db, logger, queue: t.queue }).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const { target, id } = await newUpload();
      const before = storedFiles();
      const body = await pngOfSize(MAX_UPLOAD_BYTES + 1);
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: target, headers: { 'Content-Type': 'image/png' } }, (r) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (c) => (text += c));
          r.on('end', () => resolve({ status: r.statusCode!, body: text }));
        });
        req.on('error', reject);
        // Chunked transfer: the server can only count.
        for (let offset = 0; offset < body.length; offset += 256 * 1024) req.write(body.subarray(offset, offset + 256 * 1024));
        req.end();
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'uploads.too_large' });
      expect(storedFiles()).toEqual(before);
      expect(fs.readdirSync(path.join(uploadsDir, '.incoming'))).toEqual([]);
      expect((await t.db('uploads').where({ id }).first()).status).toBe('pending');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('a forged, tampered, missing or expired signature: 403', async () => {
    const image = await png(20, 20);
    const { id, uploadURL } = await newUpload();
    const url = new URL(uploadURL);
    const expires = url.searchParams.get('expires')!;
    const sig = url.searchParams.get('sig')!;
    const base = `/api/objects/local/${id}`;
    const forged = sig.replace(/^./, (c) => (c === '0' ? '1' : '0'));

    for (const target of [
      `${base}?expires=${expires}&sig=${forged}`,
      `${base}?expires=${Number(expires) + 3600}&sig=${sig}`, // extended expiry
      `${base}?expires=${expires}`,
      `${base}?expires=${expires}&sig=${sig}&sig=${sig}`,
      `${base}?expires=soon&sig=${sig}`,
    ]) {
      const res = await t.request.put(target).set('Content-Type', 'image/png').send(image).expect(403);
      expect(res.body.code).toBe('uploads.invalid_signature');
    }
    // Another upload's signature does not open this one.
    const other = await newUpload();
    const otherUrl = new URL(other.uploadURL);
    await t.request.put(`${base}?${otherUrl.searchParams}`).set('Content-Type', 'image/png').send(image).expect(403);

    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = await t.request
      .put(`${base}?expires=${past}&sig=${signLocalUpload(t.config.SESSION_SECRET!, id, past)}`)
      .set('Content-Type', 'image/png')
      .send(image)
      .expect(403);
    expect(expired.body.code).toBe('uploads.link_expired');

    expect((await t.db('uploads').where({ id }).first()).status).toBe('pending');
    expect(fs.existsSync(path.join(uploadsDir, id))).toBe(false);
  });

  it('a second PUT to the same upload: 409, the first file kept', async () => {
    const first = await png(30, 30);
    const { target, id } = await newUpload();
    await t.request.put(target).set('Content-Type', 'image/png').send(first).expect(200);
    const res = await t.request.put(target).set('Content-Type', 'image/jpeg').send(await jpeg()).expect(409);
    expect(res.body.code).toBe('uploads.already_uploaded');
    expect(fs.readFileSync(path.join(uploadsDir, id)).equals(first)).toBe(true);
  });

  it('a validly signed URL for an upload that was never created: 404', async () => {
    const id = crypto.randomUUID();
    const expires = Math.floor(Date.now() / 1000) + 600;
    const res = await t.request
      .put(`/api/objects/local/${id}?expires=${expires}&sig=${signLocalUpload(t.config.SESSION_SECRET!, id, expires)}`)
      .set('Content-Type', 'image/png')
      .send(await png(10, 10))
      .expect(404);
    expect(res.body.code).toBe('uploads.not_found');
  });

  it('a malformed id: 400', async () => {
    const res = await t.request.put('/api/objects/local/..%2F..%2Fsecrets.json?expires=1&sig=x').send(Buffer.from('x')).expect(400);
    expect(res.body.code).toBe('request.invalid');
  });
});

describe('GET /objects/uploads/:id', () => {
  it('an unknown id: 404', async () => {
    const res = await t.request.get(`/objects/uploads/${crypto.randomUUID()}`).expect(404);
    expect(res.body).toEqual({ message: 'Upload not found', code: 'uploads.not_found' });
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('an upload that was never put: 404', async () => {
    const { id } = await newUpload();
    await t.request.get(`/objects/uploads/${id}`).expect(404);
  });

  it('an id that is not a uuid: 400', async () => {
    for (const bad of ['not-a-uuid', '..', 'abc.svg', `${crypto.randomUUID()}x`]) {
      const res = await t.request.get(`/objects/uploads/${bad}`).expect(400);
      expect(res.body.code).toBe('request.invalid');
    }
  });

  it('a width outside the allowed set: 400, with the allowed ones named', async () => {
    const { target, id } = await newUpload();
    await t.request.put(target).set('Content-Type', 'image/png').send(await png(40, 40)).expect(200);
    for (const w of ['100', 'abc', '-160', '160.0', '99999']) {
      const res = await t.request.get(`/objects/uploads/${id}?w=${w}`).expect(400);
      expect(res.body).toMatchObject({ code: 'request.invalid', fields: { w: 'w must be one of 160, 320, 640, 1280' } });
    }
  });
});

describe('sweep of stale pending uploads', () => {
  it('removes pending rows whose URL expired over an hour ago and keeps the rest', async () => {
    const stale = await newUpload();
    const fresh = await newUpload();
    const stored = await newUpload();
    await t.request.put(stored.target).set('Content-Type', 'image/png').send(await png(10, 10)).expect(200);
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await t.db('uploads').whereIn('id', [stale.id, stored.id]).update({ expiresAt: longAgo });
    fs.mkdirSync(path.join(uploadsDir, '.incoming'), { recursive: true });
    const crashed = path.join(uploadsDir, '.incoming', `${stale.id}.deadbeef0000`);
    fs.writeFileSync(crashed, 'partial');
    fs.utimesSync(crashed, longAgo, longAgo);

    const ctx = { db: t.db, logger: createLogger('silent'), config: t.config, queue: t.queue, jobId: 'test', retryCount: 0, signal: new AbortController().signal };
    await sweepPendingUploadsJob.handler({}, ctx);

    expect(await t.db('uploads').where({ id: stale.id }).first()).toBeUndefined();
    expect((await t.db('uploads').where({ id: fresh.id }).first()).status).toBe('pending');
    expect((await t.db('uploads').where({ id: stored.id }).first()).status).toBe('stored');
    expect(fs.existsSync(crashed)).toBe(false);
    // A second run finds nothing more to do.
    await sweepPendingUploadsJob.handler({}, ctx);
    expect((await t.db('uploads').where({ id: fresh.id }).first()).status).toBe('pending');
  });
});

describe('sweep of unused uploads', () => {
  it('removes stored uploads that no listing, campaign or agent uses 24 hours after upload; keeps used and recent ones', async () => {
    const put = async () => {
      const u = await newUpload();
      await t.request.put(u.target).set('Content-Type', 'image/png').send(await png(12, 12)).expect(200);
      return u;
    };
    const [unused, profile, recent] = [await put(), await put(), await put()];
    const agentId = agentIds.get(owner)!;
    await owner.put(`/api/agents/${agentId}`).send({ profileImageUrl: `/objects/uploads/${profile.id}` }).expect(200);
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await t.db('uploads').whereIn('id', [unused.id, profile.id]).update({ createdAt: dayAgo });

    const ctx = { db: t.db, logger: createLogger('silent'), config: t.config, queue: t.queue, jobId: 'test', retryCount: 0, signal: new AbortController().signal };
    await sweepPendingUploadsJob.handler({}, ctx);

    expect(await t.db('uploads').where({ id: unused.id }).first()).toBeUndefined();
    expect(fs.existsSync(path.join(uploadsDir, unused.id))).toBe(false);
    await t.request.get(`/objects/uploads/${unused.id}`).expect(404);
    expect((await t.db('uploads').where({ id: profile.id }).first()).status).toBe('stored');
    expect((await t.db('uploads').where({ id: recent.id }).first()).status).toBe('stored');
    await t.request.get(`/objects/uploads/${profile.id}`).expect(200);
  });
});

describe('rate limit', () => {
  let own: TestContext;
  beforeAll(async () => {
    own = await createTestContext({ env: { DATA_DIR: dataDir } });
  });
  afterAll(() => own.close());

  it('allows 60 upload URLs a minute per client, then answers 429', async () => {
    // Two browsers with an agent each (the per-session quota is 40 an hour), one address.
    const browsers = [own.newSession(), own.newSession()];
    for (const b of browsers) await b.post('/api/agents').send({ name: 'Dana Whitfield', state: 'FL', manualEntry: true }).expect(201);
    for (let i = 0; i < 60; i += 1) await browsers[i % 2]!.post('/api/objects/upload').expect(200);
    const res = await browsers[0]!.post('/api/objects/upload').expect(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await own.db('uploads').count({ n: '*' }).first()).toEqual({ n: '60' });
  });
});

describe('upload quota per identity (L4)', () => {
  // The smallest quota the configuration takes: one image's worth, 10 MiB.
  const QUOTA = 10 * 1024 * 1024;
  let q: TestContext;
  let quotaDir: string;
  beforeAll(async () => {
    quotaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-quota-'));
    // Behind a trusted proxy, so a case can come from another client address (X-Forwarded-For); without it, 127.0.0.1.
    q = await createTestContext({ env: { DATA_DIR: quotaDir, UPLOAD_QUOTA_BYTES: String(QUOTA), TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await q.close();
    fs.rmSync(quotaDir, { recursive: true, force: true });
  });
  afterEach(() => q.db('rate_limits').delete());

  async function wizard() {
    const browser = q.newSession();
    await browser.post('/api/agents').send({ name: 'Quinn Quota', state: 'FL', manualEntry: true }).expect(201);
    return browser;
  }
  async function put(browser: ReturnType<TestContext['newSession']>, bytes: Buffer) {
    const signed = await browser.post('/api/objects/upload');
    if (signed.status !== 200) return signed;
    const url = new URL(signed.body.uploadURL);
    return q.request.put(url.pathname + url.search).set('Content-Type', 'image/png').send(bytes);
  }

  it("refuses the bytes that would pass an anonymous wizard's quota, at receipt and then at signing, keeping nothing", async () => {
    const browser = await wizard();
    expect((await put(browser, await pngOfSize(6 * 1024 * 1024))).status).toBe(200);
    // 6 MiB held: 5 more would pass the 10 MiB quota. Refused on arrival, with the reason, and not kept on disk.
    const files = storedFilesIn(quotaDir).length;
    const over = await put(browser, await pngOfSize(5 * 1024 * 1024));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'uploads.quota_exceeded', quotaBytes: QUOTA });
    expect(over.body.message).toBe('Upload limit reached: your images take 6 MB of the 10 MB allowed. Images that no listing or campaign uses are removed a day after upload.');
    expect(storedFilesIn(quotaDir)).toHaveLength(files);
    // What fits still goes in; once it is full, no more slots are handed out.
    expect((await put(browser, await pngOfSize(4 * 1024 * 1024))).status).toBe(200);
    const full = await browser.post('/api/objects/upload').expect(413);
    expect(full.body.code).toBe('uploads.quota_exceeded');
  });

  it('counts an anonymous wizard per client address too: a second browser from the same address shares its budget', async () => {
    // The first case filled this address's 10 MiB (every request here comes from 127.0.0.1).
    const another = await wizard();
    expect((await another.post('/api/objects/upload').expect(413)).body.code).toBe('uploads.quota_exceeded');
    // From another address the same kind of browser has room.
    const elsewhere = q.newSession();
    await elsewhere.post('/api/agents').set('X-Forwarded-For', '203.0.113.7').send({ name: 'Quinn Quota', state: 'FL', manualEntry: true }).expect(201);
    await elsewhere.post('/api/objects/upload').set('X-Forwarded-For', '203.0.113.7').expect(200);
  });

  it('counts a logged-in agent by the agent alone', async () => {
    // The address is full, but a logged-in agent's uploads count against the agent, not the address.
    const browser = await wizard();
    const [agent] = (await browser.get('/api/agents').expect(200)).body;
    const sid = crypto.randomUUID();
    await q.db('sessions').insert({ sid, data: JSON.stringify({ agentId: agent.id }), expiresAt: new Date(Date.now() + 60_000), updatedAt: new Date() });
    const keys = new CookieKeys([q.config.SESSION_SECRET!]);
    const cookie = `la.sid=${sid}; la.sid.sig=${keys.sign(`la.sid=${sid}`)}`;
    const signed = await q.request.post('/api/objects/upload').set('Cookie', cookie).expect(200);
    const id = new URL(signed.body.uploadURL).pathname.split('/').pop();
    expect((await q.db('uploads').where({ id }).first()).clientAddress).toBeNull();
  });
});

/** The originals a local provider keeps under `dir` (variants and the incoming folder aside). */
function storedFilesIn(dir: string): string[] {
  const root = path.join(dir, 'uploads');
  const list = (d: string): string[] =>
    fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(path.join(d, e.name)) : [path.join(d, e.name)])) : [];
  return list(root).filter((f) => !f.startsWith(path.join(root, 'variants')) && !f.startsWith(path.join(root, '.incoming')));
}

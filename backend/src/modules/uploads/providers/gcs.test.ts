import crypto from 'node:crypto';
import nock from 'nock';
import sharp from 'sharp';
import { CRC32C } from '@google-cloud/storage';
import { objectPathFromUploadUrl } from '@app/contracts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '@app/contracts';
import { createTestContext, type TestContext } from '../../../../test/helpers';
import { createLogger } from '../../../platform/logger';
import { signLocalUpload } from './local-disk';
import { sweepPendingUploadsJob } from '../jobs/sweep-pending-uploads.job';
import { gcsStorage, parseServiceAccountJson } from './gcs';

const BUCKET = 'listing-ads-test-uploads';
const CLIENT_EMAIL = 'uploads@listing-ads-test.iam.gserviceaccount.com';
const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
/** The shape of a key file downloaded from the Google Cloud console (the key is made up for the test). */
const serviceAccountJson = JSON.stringify({
  type: 'service_account',
  project_id: 'listing-ads-test',
  private_key_id: 'abc123',
  private_key: privateKey,
  client_email: CLIENT_EMAIL,
  client_id: '1234567890',
  auth_uri: 'https://accounts.google.com/o/oauth2/auth',
  token_uri: 'https://oauth2.googleapis.com/token',
});

beforeAll(() => {
  nock.disableNetConnect();
  // supertest talks to the app over loopback; everything else is refused.
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
});
afterEach(() => {
  nock.cleanAll();
});
afterAll(() => {
  // nock patches node's shared net/http modules: unpatch them, or the next test file in this worker inherits a dead interceptor.
  nock.restore();
});

function crc32c(bytes: Buffer): string {
  const c = new CRC32C();
  c.update(bytes);
  return c.toString();
}

/** RFC 3986 encoding, as the V4 canonical query string wants it. */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Rebuilds the V4 string-to-sign from the URL alone, following Google's documented algorithm
 * (canonical request → SHA-256 → "GOOG4-RSA-SHA256\n<date>\n<scope>\n<hash>"), and checks the
 * signature with the public key: proves the URL is signed by our key for exactly this request.
 */
function verifyV4Signature(signedUrl: string, method: string, headers: Record<string, string>): boolean {
  const url = new URL(signedUrl);
  const params = [...url.searchParams.entries()].filter(([k]) => k !== 'X-Goog-Signature');
  const canonicalQuery = params
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const signedHeaders = url.searchParams.get('X-Goog-SignedHeaders')!;
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((h) => `${h}:${h === 'host' ? url.host : headers[h]}\n`)
    .join('');
  const canonicalRequest = [method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, 'UNSIGNED-PAYLOAD'].join('\n');
  const [, ...scope] = url.searchParams.get('X-Goog-Credential')!.split('/');
  const stringToSign = ['GOOG4-RSA-SHA256', url.searchParams.get('X-Goog-Date'), scope.join('/'), crypto.createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  return crypto.verify('RSA-SHA256', Buffer.from(stringToSign), publicKey, Buffer.from(url.searchParams.get('X-Goog-Signature')!, 'hex'));
}

/** X-Goog-Date (20261122T120000Z) → Date. */
function googDate(v: string): Date {
  return new Date(`${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}T${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}Z`);
}

describe('GCS V4 signed PUT URLs (offline)', () => {
  const storage = gcsStorage({ bucket: BUCKET, credentialsJson: serviceAccountJson });

  it('signs a PUT for uploads/<id> with our service account, no network needed, bound to the content type', async () => {
    const id = crypto.randomUUID();
    const expiresAt = new Date((Math.floor(Date.now() / 1000) + 900) * 1000);
    const { uploadURL, expiresAt: returned } = await storage.createUpload(id, { expiresAt, origin: 'http://ignored.example', contentType: 'image/png' });
    expect(returned).toEqual(expiresAt);

    const url = new URL(uploadURL);
    expect(url.protocol).toBe('https:');
    expect(url.host).toBe('storage.googleapis.com');
    expect(url.pathname).toBe(`/${BUCKET}/uploads/${id}`);
    expect(objectPathFromUploadUrl(uploadURL)).toBe(`/objects/uploads/${id}`);
    const q = url.searchParams;
    expect(q.get('X-Goog-Algorithm')).toBe('GOOG4-RSA-SHA256');
    const date = googDate(q.get('X-Goog-Date')!);
    expect(q.get('X-Goog-Credential')).toBe(`${CLIENT_EMAIL}/${q.get('X-Goog-Date')!.slice(0, 8)}/auto/storage/goog4_request`);
    // Valid from signing until exactly the expiry we asked for.
    expect(date.getTime() + Number(q.get('X-Goog-Expires')) * 1000).toBe(expiresAt.getTime());
    expect(Number(q.get('X-Goog-Expires'))).toBeLessThanOrEqual(900);
    expect(q.get('X-Goog-SignedHeaders')).toBe('content-type;host');
    expect(q.get('X-Goog-Signature')).toMatch(/^[0-9a-f]{512}$/);

    expect(verifyV4Signature(uploadURL, 'PUT', { 'content-type': 'image/png' })).toBe(true);
    // The signature covers the verb, the object and the bound type.
    expect(verifyV4Signature(uploadURL, 'PUT', { 'content-type': 'image/svg+xml' })).toBe(false);
    expect(verifyV4Signature(uploadURL, 'GET', { 'content-type': 'image/png' })).toBe(false);
    expect(verifyV4Signature(uploadURL.replace(id, crypto.randomUUID()), 'PUT', { 'content-type': 'image/png' })).toBe(false);
  });

  it('signs only the host when no content type is known (the spec client PUTs with its own type)', async () => {
    const id = crypto.randomUUID();
    const { uploadURL } = await storage.createUpload(id, { expiresAt: new Date(Date.now() + 60_000), origin: 'http://ignored.example' });
    expect(new URL(uploadURL).searchParams.get('X-Goog-SignedHeaders')).toBe('host');
    expect(verifyV4Signature(uploadURL, 'PUT', {})).toBe(true);
  });

  it('refuses ids that are not uuids, so no other object name can be signed', async () => {
    await expect(storage.createUpload('../secrets', { expiresAt: new Date(Date.now() + 60_000), origin: 'http://x' })).rejects.toThrow(RangeError);
  });
});

describe('parseServiceAccountJson', () => {
  it('names what is wrong without echoing the key', () => {
    expect(() => parseServiceAccountJson('{not json')).toThrow('GCS_CREDENTIALS_JSON is not valid JSON');
    const noKey = JSON.stringify({ type: 'service_account', client_email: CLIENT_EMAIL, private_key: 'oops-secret' });
    expect(() => parseServiceAccountJson(noKey)).toThrow(/check private_key$/);
    expect(() => parseServiceAccountJson(noKey)).not.toThrow(/oops-secret/);
    expect(parseServiceAccountJson(serviceAccountJson)).toMatchObject({ client_email: CLIENT_EMAIL, project_id: 'listing-ads-test' });
  });
});

/** Google's OAuth token endpoint, as the service-account JWT flow (gtoken) calls it. */
function nockGoogleToken() {
  return nock('https://www.googleapis.com')
    .post('/oauth2/v4/token', (body) => body.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && typeof body.assertion === 'string')
    .reply(200, { access_token: 'ya29.test-token', token_type: 'Bearer', expires_in: 3600 });
}

/** The JSON API object resource (storage#object) for uploads/<id>. */
function objectResource(bucket: string, id: string, opts: { size: number; generation: string; contentType?: string; bytes?: Buffer }) {
  const bytes = opts.bytes;
  return {
    kind: 'storage#object',
    id: `${bucket}/uploads/${id}/${opts.generation}`,
    selfLink: `https://www.googleapis.com/storage/v1/b/${bucket}/o/uploads%2F${id}`,
    mediaLink: `https://storage.googleapis.com/download/storage/v1/b/${bucket}/o/uploads%2F${id}?generation=${opts.generation}&alt=media`,
    name: `uploads/${id}`,
    bucket,
    generation: opts.generation,
    metageneration: '1',
    contentType: opts.contentType ?? 'image/png',
    storageClass: 'STANDARD',
    size: String(opts.size),
    ...(bytes
      ? { md5Hash: crypto.createHash('md5').update(bytes).digest('base64'), crc32c: crc32c(bytes) }
      : {}),
    timeCreated: '2026-11-22T12:00:00.000Z',
    updated: '2026-11-22T12:00:00.000Z',
  };
}

/** The media download response headers GCS sends (x-goog-hash lets the client check integrity). */
function mediaHeaders(bytes: Buffer, generation: string, contentType = 'image/png') {
  return {
    'Content-Type': contentType,
    'Content-Length': String(bytes.length),
    'x-goog-generation': generation,
    'x-goog-metageneration': '1',
    'x-goog-stored-content-encoding': 'identity',
    'x-goog-stored-content-length': String(bytes.length),
    'x-goog-hash': `crc32c=${crc32c(bytes)},md5=${crypto.createHash('md5').update(bytes).digest('base64')}`,
  };
}

describe('reading from GCS (JSON API, mocked)', () => {
  const storage = gcsStorage({ bucket: BUCKET, credentialsJson: serviceAccountJson });

  it('reads metadata, then downloads the object pinned to its generation, with a bearer token from the JWT flow', async () => {
    const id = crypto.randomUUID();
    const bytes = await sharp({ create: { width: 12, height: 12, channels: 3, background: '#0a0' } }).png().toBuffer();
    const generation = '1763812800123456';
    const token = nockGoogleToken();
    const api = nock('https://storage.googleapis.com', { reqheaders: { authorization: 'Bearer ya29.test-token' } })
      .get(`/storage/v1/b/${BUCKET}/o/uploads%2F${id}`)
      .reply(200, objectResource(BUCKET, id, { size: bytes.length, generation, bytes }))
      .get(`/storage/v1/b/${BUCKET}/o/uploads%2F${id}`)
      .query({ alt: 'media', generation })
      .reply(200, bytes, mediaHeaders(bytes, generation));

    expect(await storage.stat(id)).toEqual({ size: bytes.length, contentType: 'image/png', version: generation });
    const object = await storage.read(id, { version: generation });
    expect(Buffer.isBuffer(object?.body)).toBe(true);
    expect(Buffer.compare(object!.body as Buffer, bytes)).toBe(0);
    expect(object).toMatchObject({ size: bytes.length, version: generation });
    expect(token.isDone()).toBe(true);
    expect(api.isDone()).toBe(true);
  });

  it('a missing object is null, and deleting it is not an error', async () => {
    const id = crypto.randomUUID();
    const notFound = { error: { code: 404, message: 'No such object: x', errors: [{ message: 'No such object: x', domain: 'global', reason: 'notFound' }] } };
    nockGoogleToken();
    const api = nock('https://storage.googleapis.com')
      .get(`/storage/v1/b/${BUCKET}/o/uploads%2F${id}`)
      .reply(404, notFound)
      .get(`/storage/v1/b/${BUCKET}/o/uploads%2F${id}`)
      .query({ alt: 'media', generation: '42' })
      .reply(404, notFound)
      .delete(`/storage/v1/b/${BUCKET}/o/uploads%2F${id}`)
      .reply(404, notFound);

    expect(await storage.stat(id)).toBeNull();
    expect(await storage.read(id, { version: '42' })).toBeNull();
    await expect(storage.delete(id)).resolves.toBeUndefined();
    expect(api.isDone()).toBe(true);
  });

  it('a download whose bytes do not match Google\'s checksum fails', async () => {
    const id = crypto.randomUUID();
    const bytes = Buffer.from('the real bytes');
    nockGoogleToken();
    nock('https://storage.googleapis.com')
      .get(`/storage/v1/b/${BUCKET}/o/uploads%2F${id}`)
      .query({ alt: 'media', generation: '7' })
      .reply(200, Buffer.from('tampered bytes'), mediaHeaders(bytes, '7'));
    await expect(storage.read(id, { version: '7' })).rejects.toMatchObject({ code: 'CONTENT_DOWNLOAD_MISMATCH' });
  });
});

describe('the uploads API with the GCS provider', () => {
  let t: TestContext;
  let dataDir: string;
  const GCS = 'https://storage.googleapis.com';
  const objectUrl = (id: string) => `/storage/v1/b/${BUCKET}/o/uploads%2F${id}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-gcs-test-'));
    t = await createTestContext({ env: { DATA_DIR: dataDir, GCS_BUCKET: BUCKET, GCS_CREDENTIALS_JSON: serviceAccountJson } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // Each Storage client fetches a token once and caches it.
    nockGoogleToken();
  });

  async function newUpload() {
    const res = await t.request.post('/api/objects/upload').expect(200);
    const url = new URL(res.body.uploadURL);
    return { uploadURL: res.body.uploadURL as string, id: url.pathname.split('/').pop()! };
  }

  it('hands out a V4 signed PUT URL for the bucket and records a pending GCS upload', async () => {
    expect(t.config.providers.uploads).toBe('gcs');
    const { uploadURL, id } = await newUpload();
    const url = new URL(uploadURL);
    expect(url.origin).toBe(GCS);
    expect(url.pathname).toBe(`/${BUCKET}/uploads/${id}`);
    expect(url.searchParams.get('X-Goog-SignedHeaders')).toBe('host');
    expect(verifyV4Signature(uploadURL, 'PUT', {})).toBe(true);
    expect(objectPathFromUploadUrl(uploadURL)).toBe(`/objects/uploads/${id}`);
    expect(await t.db('uploads').where({ id }).first()).toMatchObject({ provider: 'gcs', status: 'pending' });

    // The local PUT endpoint does not take GCS uploads, even with a valid local signature.
    const expires = Math.floor(Date.now() / 1000) + 600;
    await t.request
      .put(`/api/objects/local/${id}?expires=${expires}&sig=${signLocalUpload(t.config.SESSION_SECRET!, id, expires)}`)
      .set('Content-Type', 'image/png')
      .send(Buffer.from('x'))
      .expect(404);
  });

  it('is a 404 while the object has not reached Google', async () => {
    const { id } = await newUpload();
    const api = nock(GCS).get(objectUrl(id)).reply(404, { error: { code: 404, message: 'No such object' } });
    await t.request.get(`/objects/uploads/${id}`).expect(404);
    expect(api.isDone()).toBe(true);
    expect((await t.db('uploads').where({ id }).first()).status).toBe('pending');
  });

  it('verifies the object on first request, stores the detected type and pins the generation', async () => {
    const { id } = await newUpload();
    const bytes = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#123456' } }).png().toBuffer();
    const generation = '1763812800000001';
    // The browser declared something else: only the bytes count.
    const first = nock(GCS)
      .get(objectUrl(id))
      .reply(200, objectResource(BUCKET, id, { size: bytes.length, generation, bytes, contentType: 'text/html' }))
      .get(objectUrl(id))
      .query({ alt: 'media', generation })
      .reply(200, bytes, mediaHeaders(bytes, generation, 'text/html'));

    const res = await t.request.get(`/objects/uploads/${id}`).buffer(true).expect(200);
    expect(first.isDone()).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBe(`"${id}"`);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    expect(await t.db('uploads').where({ id }).first()).toMatchObject({
      status: 'stored',
      contentType: 'image/png',
      sizeBytes: bytes.length,
      storageVersion: generation,
    });

    // Later reads (originals and new variants) fetch exactly the verified generation.
    const pinned = nock(GCS).get(objectUrl(id)).query({ alt: 'media', generation }).times(2).reply(200, bytes, mediaHeaders(bytes, generation));
    const again = await t.request.get(`/objects/uploads/${id}`).buffer(true).expect(200);
    expect(Buffer.compare(again.body as Buffer, bytes)).toBe(0);
    const variant = await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/webp').buffer(true).expect(200);
    expect(pinned.isDone()).toBe(true);
    expect(variant.headers['content-type']).toBe('image/webp');
    expect(await sharp(variant.body as Buffer).metadata()).toMatchObject({ width: 160, height: 80 });
    // The variant is now cached on disk: no further call to Google.
    await t.request.get(`/objects/uploads/${id}?w=160`).set('Accept', 'image/webp').expect(200);
  });

  it('deletes and rejects an object that is not an image', async () => {
    const { id } = await newUpload();
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const generation = '1763812800000002';
    const api = nock(GCS)
      .get(objectUrl(id))
      .reply(200, objectResource(BUCKET, id, { size: html.length, generation, bytes: html, contentType: 'image/png' }))
      .get(objectUrl(id))
      .query({ alt: 'media', generation })
      .reply(200, html, mediaHeaders(html, generation))
      .delete(objectUrl(id))
      .reply(204);

    await t.request.get(`/objects/uploads/${id}`).expect(404);
    expect(api.isDone()).toBe(true);
    expect((await t.db('uploads').where({ id }).first()).status).toBe('rejected');
    // Rejected for good: no further calls to Google.
    await t.request.get(`/objects/uploads/${id}`).expect(404);
  });

  it('deletes and rejects an object over 10 MB without downloading it', async () => {
    const { id } = await newUpload();
    const api = nock(GCS)
      .get(objectUrl(id))
      .reply(200, objectResource(BUCKET, id, { size: MAX_UPLOAD_BYTES + 1, generation: '3' }))
      .delete(objectUrl(id))
      .reply(204);
    await t.request.get(`/objects/uploads/${id}`).expect(404);
    expect(api.isDone()).toBe(true);
    expect((await t.db('uploads').where({ id }).first()).status).toBe('rejected');
  });

  it('the sweep verifies stale GCS uploads nobody asked for and drops the ones that never arrived', async () => {
    const oversized = await newUpload();
    const neverArrived = await newUpload();
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await t.db('uploads').whereIn('id', [oversized.id, neverArrived.id]).update({ expiresAt: longAgo });
    const api = nock(GCS)
      .get(objectUrl(oversized.id))
      .reply(200, objectResource(BUCKET, oversized.id, { size: 50 * 1024 * 1024, generation: '9' }))
      .delete(objectUrl(oversized.id))
      .reply(204)
      .get(objectUrl(neverArrived.id))
      .reply(404, { error: { code: 404, message: 'No such object' } });

    await sweepPendingUploadsJob.handler({}, { db: t.db, logger: createLogger('silent'), config: t.config, queue: t.queue, jobId: 'test', retryCount: 0, signal: new AbortController().signal });
    expect(api.isDone()).toBe(true);
    expect((await t.db('uploads').where({ id: oversized.id }).first()).status).toBe('rejected');
    expect(await t.db('uploads').where({ id: neverArrived.id }).first()).toBeUndefined();
  });
});

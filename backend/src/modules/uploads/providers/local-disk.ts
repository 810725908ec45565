import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertUploadId, type StoredObject, type StoredObjectInfo, type UploadStorage } from './upload-storage';

/** What `verifyUploadUrl` thinks of a PUT's signature. */
export type SignatureCheck = 'valid' | 'invalid' | 'expired';

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

export class UploadAbortedError extends Error {
  override readonly name = 'UploadAbortedError';
}

/** The signing key for upload URLs: derived from the session secret, so a cookie signature is never an upload signature. */
function uploadKey(secret: string): Buffer {
  return crypto.createHmac('sha256', secret).update('listing-ads/uploads/local-put/v1').digest();
}

/** HMAC-SHA256 over the upload id and its expiry (unix seconds), hex. */
export function signLocalUpload(secret: string, id: string, expires: number): string {
  return crypto.createHmac('sha256', uploadKey(secret)).update(`${id}\n${expires}`).digest('hex');
}

/** The embedded default: files under `<DATA_DIR>/uploads/`, written by signed, expiring PUTs to our own backend. */
export interface LocalDiskStorage extends UploadStorage {
  readonly kind: 'local';
  readonly dir: string;
  /** Checks `sig` (constant time) and `expires` (unix seconds) from an upload URL's query. */
  verifyUploadUrl(id: string, expires: unknown, sig: unknown, now?: Date): SignatureCheck;
  /**
   * Streams a request body into a private temporary file, stopping at `limit` bytes: past it the
   * partial file is deleted and BodyTooLargeError thrown. Resolves with the temp file and its size.
   */
  receive(id: string, body: Readable, limit: number): Promise<{ tempPath: string; size: number }>;
  /** Moves a verified temporary file to its final place (atomic rename on the same disk). */
  commit(tempPath: string, id: string): Promise<void>;
  discard(tempPath: string): Promise<void>;
  pathOf(id: string): string;
}

export function localDiskStorage(opts: { dataDir: string; secret: string }): LocalDiskStorage {
  const dir = path.join(opts.dataDir, 'uploads');
  const incoming = path.join(dir, '.incoming');
  const key = opts.secret;

  const pathOf = (id: string) => {
    assertUploadId(id);
    return path.join(dir, id);
  };

  async function stat(id: string): Promise<StoredObjectInfo | null> {
    try {
      const s = await fsp.stat(pathOf(id));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  return {
    kind: 'local',
    dir,
    describe: () => `local disk at ${dir}`,
    pathOf,

    async createUpload(id, { expiresAt, origin }) {
      assertUploadId(id);
      const expires = Math.floor(expiresAt.getTime() / 1000);
      const url = new URL(`/api/objects/local/${id}`, origin);
      url.searchParams.set('expires', String(expires));
      url.searchParams.set('sig', signLocalUpload(key, id, expires));
      return { uploadURL: url.href, expiresAt: new Date(expires * 1000) };
    },

    verifyUploadUrl(id, expires, sig, now = new Date()) {
      if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
      if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return 'invalid';
      const expected = Buffer.from(signLocalUpload(key, id, Number(expires)), 'hex');
      if (!crypto.timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'invalid';
      return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
    },

    async receive(id, body, limit) {
      assertUploadId(id);
      await fsp.mkdir(incoming, { recursive: true, mode: 0o700 });
      const tempPath = path.join(incoming, `${id}.${crypto.randomBytes(6).toString('hex')}`);
      const size = await receiveToFile(body, tempPath, limit);
      return { tempPath, size };
    },

    async commit(tempPath, id) {
      await fsp.rename(tempPath, pathOf(id));
    },

    async discard(tempPath) {
      await fsp.rm(tempPath, { force: true });
    },

    stat,

    async read(id): Promise<StoredObject | null> {
      const info = await stat(id);
      if (!info) return null;
      const file = pathOf(id);
      return { ...info, path: file, body: fs.createReadStream(file) };
    },

    async delete(id) {
      await fsp.rm(pathOf(id), { force: true });
    },
  };
}

const drained = new WeakSet<Readable>();

/**
 * Reads and throws away what is left of a request body we refused, so the client can read our
 * answer and the connection stays usable; a client that keeps sending more than `allowance` bytes
 * after that has its connection closed.
 */
export function discardRest(body: Readable, allowance: number): void {
  if (drained.has(body) || body.readableEnded || body.destroyed) return;
  drained.add(body);
  let extra = 0;
  body.on('data', (chunk: Buffer) => {
    extra += chunk.length;
    if (extra > allowance) body.destroy();
  });
  body.on('error', () => undefined);
  body.resume();
}

/** Writes `body` to a new file (exclusive create, owner-only), failing past `limit` bytes; the file is removed on any failure. */
async function receiveToFile(body: Readable, file: string, limit: number): Promise<number> {
  const handle = await fsp.open(file, 'wx', 0o600);
  const out = handle.createWriteStream();
  return new Promise<number>((resolve, reject) => {
    let size = 0;
    let settled = false;

    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      if (!err) return resolve(size);
      out.destroy();
      fsp.rm(file, { force: true }).then(() => reject(err), () => reject(err));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle(new BodyTooLargeError(`body exceeds ${limit} bytes`));
        discardRest(body, 2 * limit);
        return;
      }
      if (!out.write(chunk)) {
        body.pause();
        out.once('drain', () => body.resume());
      }
    };
    const onEnd = () => out.end();
    const onError = (err: Error) => settle(new UploadAbortedError(err.message));
    const onClose = () => {
      if (!body.readableEnded) settle(new UploadAbortedError('the client went away before the upload finished'));
    };

    out.on('error', (err) => settle(err));
    // 'close' (not 'finish'): the descriptor is closed, so sharp and rename see the whole file.
    out.on('close', () => settle());
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
    body.resume();
  });
}

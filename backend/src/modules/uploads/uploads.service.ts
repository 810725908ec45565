import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_UPLOAD_BYTES, UPLOADS_PATH_PREFIX } from '@app/contracts';
import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { notAnImage, quotaExceeded, uploadAborted, uploadTooLarge } from './uploads.errors';
import { Upload } from './upload.model';
import { detectImage, withoutMetadata } from './image-check';
import { BodyTooLargeError, UploadAbortedError } from './providers/local-disk';
import type { UploadStorage, UploadStorages } from './providers';
import type { VariantCache, VariantFile, VariantFormat, VariantWidth } from './variants';

/** How long a signed upload URL works. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** Pending uploads this long past their URL's expiry are swept (a PUT that started in time may still be streaming). */
export const PENDING_SWEEP_GRACE_SECONDS = 60 * 60;

export interface UploadsDeps {
  db: Db;
  logger: Logger;
  storages: UploadStorages;
  variants: VariantCache;
  /** UPLOAD_QUOTA_BYTES: the most bytes one identity's uploads may take (L4). */
  quotaBytes: number;
}

/**
 * Who an upload counts against (L4): always its agent; for an anonymous wizard (a session that owns the agent
 * without being logged in as it) also that browser session and the client address, so that nobody filling in
 * a wizard can use up an agent's space alone, nor one browser or address all of it.
 */
export interface UploadIdentity {
  agentId: number;
  sessionHash: string | null;
  /** Set only for an anonymous wizard's upload: then its session and address have budgets of their own. */
  clientAddress: string | null;
}

type Budget = { column: 'agent_id' | 'session_id' | 'client_address'; value: string | number };

function budgetsOf(who: UploadIdentity): Budget[] {
  const budgets: Budget[] = [{ column: 'agent_id', value: who.agentId }];
  if (who.clientAddress) {
    budgets.push({ column: 'client_address', value: who.clientAddress });
    if (who.sessionHash) budgets.push({ column: 'session_id', value: who.sessionHash });
  }
  return budgets;
}

/** The bytes a budget's stored uploads take (an open slot holds none until its bytes arrive and are checked). */
async function bytesHeld(db: Db | Knex.Transaction, budget: Budget): Promise<number> {
  const row = (await db('uploads')
    .where(budget.column, budget.value)
    .where('status', 'stored')
    .first(db.raw('coalesce(sum(size_bytes), 0)::bigint as stored'))) as { stored: string };
  return Number(row.stored);
}

export { notAnImage, uploadTooLarge } from './uploads.errors';
const alreadyUploaded = () => conflict('uploads.already_uploaded', 'This file has already been uploaded');

/**
 * POST /api/objects/upload: a new upload slot (server-generated uuid) and the signed URL the browser
 * PUTs the file to. The row is 'pending' until the bytes are verified.
 */
export async function createUpload(
  { db, storages, quotaBytes }: UploadsDeps,
  input: { origin: string } & UploadIdentity,
): Promise<{ uploadURL: string; objectPath: string; expiresAt: Date }> {
  // A slot only while every budget has room (L4); the bytes are counted exactly when they arrive.
  for (const budget of budgetsOf(input)) {
    const held = await bytesHeld(db, budget);
    if (held >= quotaBytes) throw quotaExceeded(held, quotaBytes);
  }
  const id = crypto.randomUUID();
  const storage = storages.active;
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS) * 1000);
  const signed = await storage.createUpload(id, { expiresAt, origin: input.origin });
  const objectPath = UPLOADS_PATH_PREFIX + id;
  await Upload.query(db).insert({
    id,
    provider: storage.kind,
    objectPath,
    status: 'pending',
    sessionId: input.sessionHash,
    agentId: input.agentId,
    clientAddress: input.clientAddress,
    expiresAt: signed.expiresAt,
  });
  return { uploadURL: signed.uploadURL, objectPath, expiresAt: signed.expiresAt };
}

/**
 * PUT /api/objects/local/:id (local disk provider): checks the signed link and that the slot is
 * still open, streams the body to a temporary file with a hard 10 MB limit, and keeps it only if its
 * bytes are an image. Whatever is refused leaves nothing on disk.
 */
export async function receiveLocalUpload(
  { db, storages, quotaBytes }: UploadsDeps,
  input: { id: string; expires: unknown; sig: unknown; body: Readable; declaredLength: number | null; bodyAlreadyRead: boolean },
): Promise<{ objectPath: string; contentType: string; sizeBytes: number }> {
  const local = storages.local;
  const check = local.verifyUploadUrl(input.id, input.expires, input.sig);
  if (check === 'invalid') throw forbidden('uploads.invalid_signature', 'This upload link is not valid. Please try the upload again.');
  if (check === 'expired') throw forbidden('uploads.link_expired', 'This upload link has expired. Please try the upload again.');

  const row = await Upload.query(db).findById(input.id);
  if (!row || row.provider !== 'local') throw notFound('upload');
  if (row.status !== 'pending') throw alreadyUploaded();
  // The JSON body parser took a body declared as JSON: whatever it was, it is not an image.
  if (input.bodyAlreadyRead) throw notAnImage();
  if (input.declaredLength !== null && input.declaredLength > MAX_UPLOAD_BYTES) throw uploadTooLarge();

  let received: { tempPath: string; size: number };
  try {
    received = await local.receive(input.id, input.body, MAX_UPLOAD_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw uploadTooLarge();
    if (err instanceof UploadAbortedError) throw uploadAborted();
    throw err;
  }
  try {
    const image = await detectImage(received.tempPath);
    if (!image) throw notAnImage();
    // Originals are public: no EXIF (GPS!) or other metadata is ever kept.
    const cleaned = await withoutMetadata(received.tempPath, image);
    if (cleaned && cleaned.length > MAX_UPLOAD_BYTES) throw uploadTooLarge();
    if (cleaned) await fsp.writeFile(received.tempPath, cleaned);
    const size = cleaned?.length ?? received.size;
    await db.transaction(async (trx) => {
      // The bytes fit every budget of this upload's identity (L4), counted under a lock per budget so that two
      // uploads arriving at once cannot both take the last room.
      if (row.agentId !== null) {
        const budgets = budgetsOf({ agentId: row.agentId, sessionHash: row.sessionId, clientAddress: row.clientAddress });
        const keys = budgets.map((b) => `uploads.quota:${b.column}:${b.value}`).sort();
        for (const key of keys) await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
        for (const budget of budgets) {
          const held = await bytesHeld(trx, budget);
          if (held + size > quotaBytes) throw quotaExceeded(held, quotaBytes);
        }
      }
      // Conditional on 'pending': of two racing PUTs, exactly one is kept.
      const updated = await Upload.query(trx)
        .where({ id: input.id, status: 'pending' })
        .patch({ status: 'stored', contentType: image.contentType, sizeBytes: size, storedAt: new Date() });
      if (!updated) throw alreadyUploaded();
      await local.commit(received.tempPath, input.id);
    });
    return { objectPath: row.objectPath, contentType: image.contentType, sizeBytes: size };
  } finally {
    await local.discard(received.tempPath);
  }
}

/** A stored upload ready to serve; `bytes` when they were just downloaded to verify them. */
export interface ServableUpload {
  row: Upload;
  storage: UploadStorage;
  bytes?: Buffer;
}

type RemoteOutcome =
  | { outcome: 'missing' }
  | { outcome: 'rejected'; reason: 'too_large' | 'empty' | 'not_an_image' }
  | { outcome: 'stored'; row: Upload; bytes: Buffer };

const verifying = new Map<string, Promise<RemoteOutcome>>();

/**
 * GCS uploads go straight from the browser to Google, so nothing of ours sees the bytes on the way
 * in. They are verified the first time they are asked for (or by the sweep job): over 10 MB (by
 * GCS's metadata, before downloading) or not an image by its bytes → the object is deleted and the
 * upload rejected; otherwise it is stored with the detected type, pinned to the object generation
 * that was checked, so a later write through the same still-valid URL is never served.
 */
export function verifyRemoteUpload(deps: UploadsDeps, row: Upload, storage: UploadStorage): Promise<RemoteOutcome> {
  let pending = verifying.get(row.id);
  if (!pending) {
    pending = doVerifyRemote(deps, row, storage).finally(() => verifying.delete(row.id));
    verifying.set(row.id, pending);
  }
  return pending;
}

async function doVerifyRemote({ db, logger }: UploadsDeps, row: Upload, storage: UploadStorage): Promise<RemoteOutcome> {
  const reject = async (reason: 'too_large' | 'empty' | 'not_an_image', size?: number): Promise<RemoteOutcome> => {
    await storage.delete(row.id);
    await Upload.query(db).where({ id: row.id, status: 'pending' }).patch({ status: 'rejected' });
    logger.warn({ uploadId: row.id, provider: storage.kind, reason, size }, 'upload rejected and deleted');
    return { outcome: 'rejected', reason };
  };

  const info = await storage.stat(row.id);
  if (!info) return { outcome: 'missing' };
  if (info.size > MAX_UPLOAD_BYTES) return reject('too_large', info.size);
  if (info.size === 0) return reject('empty', 0);
  const object = await storage.read(row.id, { version: info.version ?? null });
  if (!object) return { outcome: 'missing' };
  const bytes = await toBuffer(object.body, MAX_UPLOAD_BYTES);
  if (!bytes) return reject('too_large');
  const image = await detectImage(bytes);
  if (!image) return reject('not_an_image', bytes.length);

  const [updated] = await Upload.query(db)
    .where({ id: row.id, status: 'pending' })
    .patch({ status: 'stored', contentType: image.contentType, sizeBytes: bytes.length, storedAt: new Date(), storageVersion: info.version ?? null })
    .returning('*');
  // Verified elsewhere meanwhile (the sweep job, another process): serve what that recorded.
  const current = (updated as Upload | undefined) ?? (await Upload.query(db).findById(row.id));
  if (!current || current.status !== 'stored') return { outcome: 'missing' };
  return { outcome: 'stored', row: current, bytes };
}

/** The upload behind /objects/uploads/:id, if it may be served; 404 for unknown, pending and rejected ones. */
export async function findServableUpload(deps: UploadsDeps, id: string): Promise<ServableUpload> {
  const row = await Upload.query(deps.db).findById(id);
  if (!row || row.status === 'rejected') throw notFound('upload');
  const storage = deps.storages.of(row.provider);
  if (!storage) {
    deps.logger.warn({ uploadId: id, provider: row.provider }, 'upload stored with a provider that is not configured');
    throw notFound('upload');
  }
  if (row.status === 'stored') return { row, storage };
  // Pending: a local upload has not arrived yet; a GCS one may have, and is checked now.
  if (row.provider !== 'gcs') throw notFound('upload');
  const result = await verifyRemoteUpload(deps, row, storage);
  if (result.outcome !== 'stored') throw notFound('upload');
  return { row: result.row, storage, bytes: result.bytes };
}

/** The original's bytes as stored (a stream for local files, a buffer for GCS). */
export async function openOriginal(deps: UploadsDeps, upload: ServableUpload): Promise<{ body: Readable | Buffer; size: number }> {
  if (upload.bytes) return { body: upload.bytes, size: upload.bytes.length };
  const object = await upload.storage.read(upload.row.id, { version: upload.row.storageVersion });
  if (!object) {
    deps.logger.error({ uploadId: upload.row.id, provider: upload.row.provider }, 'stored upload is missing from its storage');
    throw notFound('upload');
  }
  return { body: object.body, size: object.size };
}

/** A resized copy (computed once, then read from the disk cache). */
export async function variantOf(deps: UploadsDeps, upload: ServableUpload, width: VariantWidth, format: VariantFormat): Promise<VariantFile> {
  return deps.variants.get(upload.row.id, width, format, async () => {
    if (upload.bytes) return upload.bytes;
    const object = await upload.storage.read(upload.row.id, { version: upload.row.storageVersion });
    if (!object) throw notFound('upload');
    if (object.path) {
      (object.body as Readable).destroy();
      return object.path;
    }
    return object.body as Buffer;
  });
}

/**
 * Housekeeping for the sweep job: pending uploads whose URL expired long ago. A local one never
 * arrived (its row goes); a GCS one is verified now (so oversized or non-image objects nobody ever
 * asked for are deleted from the bucket too), or its row goes when Google holds nothing. Also removes
 * partial files a crash left in the local incoming folder.
 */
export async function sweepPendingUploads(deps: UploadsDeps, opts: { limit?: number; now?: Date } = {}): Promise<{ removed: number; stored: number; rejected: number }> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - PENDING_SWEEP_GRACE_SECONDS * 1000);
  const stale = await Upload.query(deps.db).where('status', 'pending').where('expiresAt', '<', cutoff).orderBy('expiresAt').limit(opts.limit ?? 200);
  const counts = { removed: 0, stored: 0, rejected: 0 };
  for (const row of stale) {
    const storage = deps.storages.of(row.provider);
    if (!storage) continue;
    if (row.provider === 'gcs') {
      const result = await verifyRemoteUpload(deps, row, storage);
      if (result.outcome === 'stored') counts.stored += 1;
      if (result.outcome === 'rejected') counts.rejected += 1;
      if (result.outcome !== 'missing') continue;
    }
    counts.removed += await Upload.query(deps.db).where({ id: row.id, status: 'pending' }).delete();
  }
  await removeStaleIncoming(path.join(deps.storages.local.dir, '.incoming'), cutoff);
  return counts;
}

async function removeStaleIncoming(dir: string, olderThan: Date): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const s = await fsp.stat(file).catch(() => null);
    if (s && s.mtime < olderThan) await fsp.rm(file, { force: true });
  }
}

/** Collects a body of at most `limit` bytes; null when it is longer. */
async function toBuffer(body: Readable | Buffer, limit: number): Promise<Buffer | null> {
  if (Buffer.isBuffer(body)) return body.length > limit ? null : body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A stored upload that no listing, campaign or agent shows after this long is removed (disk and rows are not free). */
export const UNREFERENCED_UPLOAD_TTL_SECONDS = 24 * 60 * 60;

/**
 * Stored uploads older than 24 hours that nothing uses: `inUse` answers which object paths the owning
 * modules (listings, campaigns, agents) still show, through their doors. The rest lose their bytes and row.
 * Idempotent: deleting a file or row that is already gone changes nothing.
 */
export async function sweepUnreferencedUploads(
  deps: UploadsDeps,
  inUse: (paths: string[]) => Promise<Set<string>>,
  opts: { limit?: number; now?: Date } = {},
): Promise<{ removed: number }> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - UNREFERENCED_UPLOAD_TTL_SECONDS * 1000);
  const old = await Upload.query(deps.db).where('status', 'stored').where('createdAt', '<', cutoff).orderBy('createdAt').limit(opts.limit ?? 500);
  if (!old.length) return { removed: 0 };
  const used = await inUse(old.map((u) => u.objectPath));
  let removed = 0;
  for (const row of old.filter((u) => !used.has(u.objectPath))) {
    const storage = deps.storages.of(row.provider);
    if (!storage) continue;
    await storage.delete(row.id);
    removed += await Upload.query(deps.db).where({ id: row.id, status: 'stored' }).delete();
  }
  return { removed };
}

/** A merge of agent `fromId` into `toId` (agents module's identity hooks): the uploads (and their quota) follow. */
export async function moveAgentUploads(trx: Knex.Transaction, fromId: number, toId: number): Promise<Record<string, number>> {
  const uploads = await trx('uploads').where({ agentId: fromId }).update({ agentId: toId });
  return { uploads };
}

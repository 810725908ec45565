import type { Readable } from 'node:stream';

/** Where the bytes of uploads live. One per provider; `config.providers.uploads` picks which one new uploads use. */
export interface UploadStorage {
  readonly kind: 'local' | 'gcs';
  /** For the start-up log line: where files go. */
  describe(): string;
  /**
   * A URL the browser PUTs the file to, valid until `expiresAt`. Its last path segment is `id`
   * (the spec's client derives /objects/uploads/{id} from it). GCS binds a given content type into
   * the signature (the PUT must then declare exactly it); the local provider judges the bytes anyway.
   */
  createUpload(id: string, opts: { expiresAt: Date; origin: string; contentType?: string }): Promise<{ uploadURL: string; expiresAt: Date }>;
  /** Size, declared type and version of what is stored under `id`, or null when nothing is. */
  stat(id: string): Promise<StoredObjectInfo | null>;
  /** The bytes stored under `id` (a stream for files, a buffer for remote objects), or null. */
  read(id: string, opts?: { version?: string | null }): Promise<StoredObject | null>;
  /** Removes what is stored under `id`; removing nothing is not an error. */
  delete(id: string): Promise<void>;
}

export interface StoredObjectInfo {
  size: number;
  /** As declared by whoever wrote it: informational only. */
  contentType?: string;
  /** A provider's version of the object (GCS generation). */
  version?: string;
}

export interface StoredObject extends StoredObjectInfo {
  body: Readable | Buffer;
  /** A local file path when the bytes are on this machine (sharp reads it directly). */
  path?: string;
}

/** The object's name under the uploads folder: ids are server-generated uuids, never user text. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function assertUploadId(id: string): void {
  if (!UUID_PATTERN.test(id)) throw new RangeError(`not an upload id: ${JSON.stringify(id)}`);
}

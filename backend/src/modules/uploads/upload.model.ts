import { Model } from 'objection';

export type UploadStatus = 'pending' | 'stored' | 'rejected';
export type UploadProvider = 'local' | 'gcs';

/** One upload slot: created by POST /api/objects/upload, filled by the browser's PUT, served at objectPath. */
export class Upload extends Model {
  static override tableName = 'uploads';

  /** Server-generated uuid: the object's name and the last segment of its upload URL. */
  id!: string;
  provider!: UploadProvider;
  /** /objects/uploads/<id> */
  objectPath!: string;
  /** Detected from the bytes (never the browser's declared type); null until stored. */
  contentType!: string | null;
  sizeBytes!: number | null;
  status!: UploadStatus;
  /** sha256 of the browser session's id (never the id itself), when the browser had a session. */
  sessionId!: string | null;
  agentId!: number | null;
  /** The client address of an anonymous wizard's upload (a budget of its own, L4); null for a logged-in agent's. */
  clientAddress!: string | null;
  /** When the signed upload URL stops working. */
  expiresAt!: Date;
  createdAt!: Date;
  storedAt!: Date | null;
  /** GCS object generation fixed when the object was verified: later writes through the same URL are never served. */
  storageVersion!: string | null;
}

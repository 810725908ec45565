import crypto from 'node:crypto';
import type { Config } from '../../../platform/config';
import type { Logger } from '../../../platform/logger';
import { gcsStorage } from './gcs';
import { localDiskStorage, type LocalDiskStorage } from './local-disk';
import type { UploadStorage } from './upload-storage';

export interface UploadStorages {
  /** Where new uploads go: `config.providers.uploads`. */
  active: UploadStorage;
  /** Always present: the embedded default, and the reader of files stored before a switch to GCS. */
  local: LocalDiskStorage;
  gcs?: UploadStorage;
  /** The storage holding an upload made with `provider`, if it is configured. */
  of(provider: 'local' | 'gcs'): UploadStorage | undefined;
}

/** Builds the upload providers from configuration and logs which one takes new uploads. */
export function createUploadStorages(config: Config, logger: Logger, opts: { quiet?: boolean } = {}): UploadStorages {
  let secret = config.SESSION_SECRET;
  if (!secret) {
    // The server always has one (platform/secrets.ts); a bare createApp may not. Upload URLs then die with the process.
    logger.warn('uploads: no SESSION_SECRET, local upload URLs are signed with a per-process key');
    secret = crypto.randomBytes(32).toString('hex');
  }
  const local = localDiskStorage({ dataDir: config.DATA_DIR, secret });
  const gcs = config.GCS_BUCKET ? gcsStorage({ bucket: config.GCS_BUCKET, credentialsJson: config.GCS_CREDENTIALS_JSON }) : undefined;
  const active = config.providers.uploads === 'gcs' && gcs ? gcs : local;
  if (!opts.quiet) logger.info({ provider: active.kind }, `uploads provider: ${active.kind} (${active.describe()})`);
  return { active, local, gcs, of: (provider) => (provider === 'gcs' ? gcs : local) };
}

export type { UploadStorage, StoredObject, StoredObjectInfo } from './upload-storage';
export type { LocalDiskStorage } from './local-disk';

import { Storage } from '@google-cloud/storage';
import { z } from 'zod';
import { assertUploadId, type StoredObject, type StoredObjectInfo, type UploadStorage } from './upload-storage';

/** The fields of a service-account key file that signing and the API need. */
const ServiceAccountSchema = z.object({
  type: z.literal('service_account').optional(),
  client_email: z.string().min(3).includes('@'),
  private_key: z.string().includes('PRIVATE KEY'),
  project_id: z.string().optional(),
});
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

/** Parses GCS_CREDENTIALS_JSON; the error names the missing fields, never their values. */
export function parseServiceAccountJson(raw: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('GCS_CREDENTIALS_JSON is not valid JSON (expected a service-account key file)');
  }
  const parsed = ServiceAccountSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`GCS_CREDENTIALS_JSON is not a service-account key: check ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  }
  return parsed.data;
}

export interface GcsStorageOptions {
  bucket: string;
  /** Service-account key JSON. Without it, Application Default Credentials are used (signing then calls IAM signBlob). */
  credentialsJson?: string;
  /** Per-request timeout towards Google, ms. */
  timeoutMs?: number;
}

const isNotFound = (err: unknown) => (err as { code?: unknown }).code === 404;

/**
 * Google Cloud Storage: the browser PUTs straight to a V4 signed URL for `uploads/<id>` in the
 * bucket (which stays private); we read objects back through the JSON API to verify and serve them.
 */
export function gcsStorage(opts: GcsStorageOptions): UploadStorage & { readonly kind: 'gcs'; readonly bucketName: string } {
  const account = opts.credentialsJson ? parseServiceAccountJson(opts.credentialsJson) : undefined;
  const client = new Storage({
    ...(account
      ? { credentials: { client_email: account.client_email, private_key: account.private_key }, projectId: account.project_id }
      : {}),
    timeout: opts.timeoutMs ?? 30_000,
    retryOptions: { autoRetry: true, maxRetries: 2, totalTimeout: 60 },
  });
  const bucket = client.bucket(opts.bucket);
  const objectName = (id: string) => {
    assertUploadId(id);
    return `uploads/${id}`;
  };

  async function stat(id: string): Promise<StoredObjectInfo | null> {
    try {
      const [meta] = await bucket.file(objectName(id)).getMetadata();
      return {
        size: Number(meta.size),
        ...(meta.contentType ? { contentType: meta.contentType } : {}),
        ...(meta.generation !== undefined ? { version: String(meta.generation) } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  return {
    kind: 'gcs',
    bucketName: opts.bucket,
    describe: () => `Google Cloud Storage bucket ${opts.bucket}${account ? ` as ${account.client_email}` : ' (application default credentials)'}`,

    async createUpload(id, { expiresAt, contentType }) {
      // Only the content type is bound, and only when the caller knows it: every signed header must be
      // sent by the browser as is, and the spec's client sends Content-Type alone. So
      // x-goog-content-length-range is not bound; size and type are enforced when the object is first served.
      const [uploadURL] = await bucket.file(objectName(id)).getSignedUrl({
        version: 'v4',
        action: 'write',
        expires: expiresAt,
        ...(contentType ? { contentType } : {}),
      });
      return { uploadURL, expiresAt };
    },

    stat,

    /** Downloads the object (at most 10 MB once verified) into memory, pinned to `version` when given. */
    async read(id, readOpts): Promise<StoredObject | null> {
      const file = bucket.file(objectName(id), readOpts?.version ? { generation: readOpts.version } : {});
      try {
        const [body] = await file.download({ validation: 'crc32c' });
        return { body, size: body.length, ...(readOpts?.version ? { version: readOpts.version } : {}) };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async delete(id) {
      await bucket.file(objectName(id)).delete({ ignoreNotFound: true });
    },
  };
}

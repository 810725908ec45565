import { OBJECTS_PREFIX, UPLOADS_PATH_PREFIX, normalizeImageUrl } from '@app/contracts';
import type { Config } from '../../platform/config';

const LOCAL_UPLOAD_PATH = /^\/api\/objects\/local\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Spec 001 §7: an image URL on the private storage host becomes /objects/uploads/{file}; paths under
 * /objects/ and every other URL (MLS photos) are kept. The private hosts are this module's upload
 * URLs: the local provider's signed PUT path and the GCS bucket's uploads folder.
 */
export function toObjectPath(url: string, config: Pick<Config, 'GCS_BUCKET'>): string {
  const u = url.trim();
  if (u.startsWith(OBJECTS_PREFIX)) return u;
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    return u;
  }
  const local = LOCAL_UPLOAD_PATH.exec(parsed.pathname);
  if (local) return UPLOADS_PATH_PREFIX + local[1].toLowerCase();
  if (config.GCS_BUCKET) return normalizeImageUrl(u, `https://storage.googleapis.com/${config.GCS_BUCKET}/uploads/`);
  return u;
}

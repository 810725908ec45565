import type { Context } from 'koa';
import send from 'koa-send';
import { DEMO_PHOTOS_DIR } from './providers';
import { photoNotFound } from './mls.errors';

/** A demo photo's file name: letters, digits, dashes and one extension. No slashes, no dot-dot. */
const PHOTO_FILE = /^[a-z0-9][a-z0-9_-]{0,99}\.(jpe?g|png|webp)$/i;

/** GET /demo-mls/photos/:file — the bundled photos, read-only, cached for a year (they never change). */
export async function serveDemoPhoto(ctx: Context): Promise<void> {
  const file = String(ctx.params.file ?? '');
  if (!PHOTO_FILE.test(file)) throw photoNotFound();
  try {
    await send(ctx, file, {
      root: DEMO_PHOTOS_DIR,
      brotli: false,
      gzip: false,
      setHeaders: (res) => res.setHeader('Cache-Control', 'public, max-age=31536000, immutable'),
    });
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw photoNotFound();
    throw err;
  }
}

/** The file behind a demo photo URL (`/demo-mls/photos/<file>`), or null for any other URL. For share images. */
export function demoPhotoFile(url: string): string | null {
  const m = /^\/demo-mls\/photos\/([^/?#]+)$/.exec(url);
  if (!m || !PHOTO_FILE.test(m[1])) return null;
  return `${DEMO_PHOTOS_DIR}/${m[1]}`;
}

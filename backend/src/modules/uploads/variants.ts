import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { assertUploadId } from './providers/upload-storage';

/** The widths `?w=` may ask for: a closed set, so the cache cannot be made to grow without bound. */
export const VARIANT_WIDTHS = [160, 320, 640, 1280] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
export type VariantFormat = 'webp' | 'jpeg';

export const VARIANT_CONTENT_TYPES: Record<VariantFormat, string> = { webp: 'image/webp', jpeg: 'image/jpeg' };

/** True when the Accept header names image/webp with a non-zero quality (browsers that can show WebP say so). */
export function acceptsWebp(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type !== 'image/webp') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export interface VariantFile {
  path: string;
  size: number;
}

/** A local file path or the bytes of the original. */
export type VariantSource = string | Buffer;

/**
 * Resized copies of uploads, computed once and kept under `<DATA_DIR>/uploads/variants/<id>/`.
 * Concurrent requests for the same variant share one computation; files appear atomically (rename).
 */
export class VariantCache {
  readonly root: string;
  private readonly inflight = new Map<string, Promise<VariantFile>>();

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'uploads', 'variants');
  }

  fileOf(id: string, width: VariantWidth, format: VariantFormat): string {
    assertUploadId(id);
    return path.join(this.root, id, `w${width}.${format}`);
  }

  async get(id: string, width: VariantWidth, format: VariantFormat, source: () => Promise<VariantSource>): Promise<VariantFile> {
    const file = this.fileOf(id, width, format);
    const cached = await sizeOf(file);
    if (cached !== null) return { path: file, size: cached };
    let pending = this.inflight.get(file);
    if (!pending) {
      pending = this.compute(file, width, format, source).finally(() => this.inflight.delete(file));
      this.inflight.set(file, pending);
    }
    return pending;
  }

  async remove(id: string): Promise<void> {
    assertUploadId(id);
    await fsp.rm(path.join(this.root, id), { recursive: true, force: true });
  }

  private async compute(file: string, width: VariantWidth, format: VariantFormat, source: () => Promise<VariantSource>): Promise<VariantFile> {
    const input = await source();
    // An animated GIF/WebP stays animated as WebP; JPEG takes the first frame.
    const animated = format === 'webp' && ((await sharp(input).metadata()).pages ?? 1) > 1;
    let image = sharp(input, { animated, autoOrient: !animated }).resize({ width, withoutEnlargement: true });
    image = format === 'webp' ? image.webp({ quality: 80 }) : image.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true });
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      const info = await image.toFile(temp);
      await fsp.rename(temp, file);
      return { path: file, size: info.size };
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
  }
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await fsp.stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

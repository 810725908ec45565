import fs from 'node:fs/promises';
import sharp from 'sharp';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

export interface DetectedImage {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
  /** Frames of an animated GIF/WebP (1 otherwise). */
  pages: number;
}

const CONTENT_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** ISO-BMFF brands of AVIF and HEIF stills and sequences. */
const HEIF_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);
const HEAD_BYTES = 32;

/**
 * The container format announced by a file's first bytes, or null. A gate before libvips: SVG
 * (scriptable), TIFF, PDF, HTML and the like never reach an image decoder.
 */
export function sniffImageFormat(head: Buffer): 'jpeg' | 'png' | 'webp' | 'gif' | 'heif' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  const ascii = head.toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp';
  if (ascii.slice(4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii.slice(8, 12))) return 'heif';
  return null;
}

async function headOf(input: string | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input.subarray(0, HEAD_BYTES);
  const file = await fs.open(input, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * What image a file or buffer holds, judged by its bytes only (the declared Content-Type is never
 * trusted): JPEG, PNG, WebP, GIF or AVIF, or null for anything else.
 *
 * Three steps: the magic bytes; sharp's metadata() (the header parses and agrees with the magic);
 * and a tiny decode, so that every accepted image can also be resized into variants later.
 * HEIC (HEIF with HEVC) is refused: the prebuilt libvips cannot decode it and browsers other than
 * Safari cannot show it, so buyers would see a broken image.
 */
export async function detectImage(input: string | Buffer): Promise<DetectedImage | null> {
  const sniffed = sniffImageFormat(await headOf(input));
  if (!sniffed) return null;
  try {
    const meta = await sharp(input).metadata();
    let format: ImageFormat;
    if (meta.format === 'heif') {
      if (sniffed !== 'heif' || meta.compression !== 'av1') return null;
      format = 'avif';
    } else {
      if (meta.format !== sniffed) return null;
      format = sniffed as ImageFormat;
    }
    if (!meta.width || !meta.height) return null;
    await sharp(input).resize(16, 16, { fit: 'inside' }).raw().toBuffer();
    return { format, contentType: CONTENT_TYPES[format], width: meta.width, height: meta.height, pages: meta.pages ?? 1 };
  } catch {
    // libvips refuses it (unsupported, truncated, corrupt, too many pixels): not an image we can use.
    return null;
  }
}

/**
 * Re-encodes a checked image without any of its metadata (EXIF with GPS position and camera serials,
 * XMP, IPTC, ICC comments): originals are served publicly to buyers. The EXIF orientation is applied to
 * the pixels first, so the photo still shows upright. Animated GIF/WebP keep their frames.
 * Returns the new bytes, or null when the image carries no such metadata.
 */
export async function withoutMetadata(input: string | Buffer, image: Pick<DetectedImage, 'format' | 'pages'>): Promise<Buffer | null> {
  const meta = await sharp(input).metadata();
  const carries = meta.exif || meta.xmp || meta.iptc || meta.tifftagPhotoshop || (meta.comments?.length ?? 0) > 0 || (meta.orientation ?? 1) !== 1;
  // Nothing to remove: the bytes stay exactly as uploaded (no re-encoding, no quality lost).
  if (!carries) return null;
  const animated = image.pages > 1;
  // sharp writes no metadata unless asked to (withMetadata/keepMetadata): re-encoding strips it.
  // The colour profile is kept (colours stay right); it says nothing about the photographer.
  let pipeline = sharp(input, { animated, failOn: 'none' }).keepIccProfile();
  if (!animated) pipeline = pipeline.autoOrient();
  switch (image.format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    case 'png':
      return pipeline.png({ compressionLevel: 9 }).toBuffer();
    case 'webp':
      return pipeline.webp({ quality: 90 }).toBuffer();
    case 'gif':
      return pipeline.gif().toBuffer();
    case 'avif':
      return pipeline.avif({ quality: 70 }).toBuffer();
  }
}

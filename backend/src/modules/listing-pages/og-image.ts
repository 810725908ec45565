import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { formatUsd, type ListingResponse } from '@app/contracts';
import { demoPhotoFile } from '../mls';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function overlay(price: string, line1: string, line2: string, label: string): Buffer {
  return Buffer.from(`<svg width="${OG_WIDTH}" height="${OG_HEIGHT}" xmlns="http://www.w3.org/2000/svg">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0.45" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.78"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <rect x="48" y="40" rx="8" width="${label.length * 17 + 40}" height="48" fill="#1d4ed8"/>
  <text x="68" y="73" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" font-weight="700" fill="#fff">${escapeXml(label.toUpperCase())}</text>
  <text x="48" y="500" font-family="DejaVu Sans, Arial, sans-serif" font-size="72" font-weight="700" fill="#fff">${escapeXml(price)}</text>
  <text x="48" y="556" font-family="DejaVu Sans, Arial, sans-serif" font-size="36" fill="#fff">${escapeXml(line1)}</text>
  <text x="48" y="600" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" fill="#e5e7eb">${escapeXml(line2)}</text>
</svg>`);
}

/**
 * The listing's share image (og:image): its first photo cropped to 1200×630 with the price and address,
 * or a plain card when the photo is not one the server holds. Made once per content (the file name is a
 * hash of what it shows) under DATA_DIR/og/, atomically; concurrent requests share one computation.
 */
export class OgImages {
  private readonly dir: string;
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'og');
  }

  async fileFor(data: ListingResponse): Promise<string> {
    const l = data.listing;
    const photo = l.photos.map(demoPhotoFile).find((f): f is string => !!f) ?? null;
    const facts = { v: 1, photo, price: l.price, address: l.address, city: l.city, state: l.state, postalCode: l.postalCode, status: l.status };
    const name = crypto.createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 32);
    const file = path.join(this.dir, `${name}.jpg`);
    try {
      await fsp.access(file);
      return file;
    } catch {
      // not made yet
    }
    let pending = this.inflight.get(file);
    if (!pending) {
      pending = this.make(file, photo, data).finally(() => this.inflight.delete(file));
      this.inflight.set(file, pending);
    }
    return pending;
  }

  private async make(file: string, photo: string | null, data: ListingResponse): Promise<string> {
    const l = data.listing;
    const base = photo
      ? sharp(photo).resize(OG_WIDTH, OG_HEIGHT, { fit: 'cover' })
      : sharp({ create: { width: OG_WIDTH, height: OG_HEIGHT, channels: 3, background: '#1e3a8a' } });
    const label = l.status === 'sold' ? 'Just sold' : 'Just listed';
    const image = base.composite([{ input: overlay(formatUsd(l.price), l.address, `${l.city}, ${l.state}${l.postalCode ? ` ${l.postalCode}` : ''}`, label) }]).jpeg({ quality: 82, mozjpeg: true });
    await fsp.mkdir(this.dir, { recursive: true });
    const temp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      await image.toFile(temp);
      await fsp.rename(temp, file);
    } catch (err) {
      await fsp.rm(temp, { force: true });
      throw err;
    }
    return file;
  }
}

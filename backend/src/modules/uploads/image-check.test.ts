import sharp from 'sharp';
import { detectImage, sniffImageFormat } from './image-check';
import { acceptsWebp } from './variants';

const blank = () => sharp({ create: { width: 24, height: 16, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } } });

describe('detectImage', () => {
  it.each([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
    ['avif', 'image/avif'],
  ] as const)('accepts %s by its bytes', async (format, contentType) => {
    const bytes = await blank().toFormat(format).toBuffer();
    expect(await detectImage(bytes)).toEqual({ format, contentType, width: 24, height: 16, pages: 1 });
  });

  it('counts the frames of an animated GIF', async () => {
    const frames = await Promise.all(['#f00', '#0f0', '#00f'].map((c) => sharp({ create: { width: 8, height: 8, channels: 3, background: c } }).png().toBuffer()));
    const bytes = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    expect(await detectImage(bytes)).toEqual({ format: 'gif', contentType: 'image/gif', width: 8, height: 8, pages: 3 });
  });

  it.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')],
    ['HTML', Buffer.from('<!doctype html><title>x</title>')],
    ['PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n')],
    ['empty', Buffer.alloc(0)],
    ['PNG signature then garbage', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)])],
  ])('refuses %s', async (_name, bytes) => {
    expect(await detectImage(bytes)).toBeNull();
  });

  it('refuses TIFF (decodable, but not a web image)', async () => {
    expect(await detectImage(await blank().tiff().toBuffer())).toBeNull();
  });

  it('refuses a JPEG cut short', async () => {
    const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#888' } }).jpeg().toBuffer();
    expect(await detectImage(bytes.subarray(0, bytes.length >> 1))).toBeNull();
  });
});

describe('sniffImageFormat', () => {
  it('reads the container from the first bytes', () => {
    expect(sniffImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(Buffer.from('GIF89a....', 'latin1'))).toBe('gif');
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffImageFormat(Buffer.from('\0\0\0\x1cftypavif', 'latin1'))).toBe('heif');
    expect(sniffImageFormat(Buffer.from('\0\0\0\x1cftypisom', 'latin1'))).toBeNull(); // MP4
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('II*\0', 'latin1'))).toBeNull(); // TIFF
  });
});

describe('acceptsWebp', () => {
  it.each([
    ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', true], // Chrome
    ['image/webp,*/*', true],
    ['IMAGE/WEBP;q=0.5', true],
    ['image/webp;q=0', false],
    ['image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5', false], // old Safari
    ['*/*', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(acceptsWebp(accept)).toBe(expected);
  });
});

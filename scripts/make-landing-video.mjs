#!/usr/bin/env node
// Makes the landing's desktop looping video (spec 000 §2) from the bundled demo MLS photos: no stock
// footage is at hand, so sharp renders the frames (a slow zoom over each photo, cross-fading into the
// next, ending on the first frame so the loop has no seam) and ffmpeg encodes them.
//
//   node scripts/make-landing-video.mjs        (needs ffmpeg on PATH: apt-get install -y ffmpeg)
//
// Writes frontend-host/public/landing/landing-loop.{webm,mp4} (VP9 and H.264, no audio track) and
// landing-loop.jpg (the poster: the first frame). The outputs are committed; rerun after changing
// the photos or the timing below.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const photosDir = path.join(root, 'backend', 'assets', 'demo-mls', 'photos');
const outDir = path.join(root, 'frontend-host', 'public', 'landing');
const PHOTOS = ['exterior-06.jpg', 'living-01.jpg', 'kitchen-06.jpg', 'exterior-33.jpg'];
const WIDTH = 480;
const HEIGHT = 360;
const FPS = 20;
const HOLD_S = 2.4; // each photo on its own
const FADE_S = 0.6; // cross-fade into the next
const ZOOM = 0.08; // how far the slow zoom goes over one photo's time on screen

const framesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'landing-video-'));
try {
  // Each photo once, a little larger than the frame, so the zoom crops rather than upsamples.
  const sources = await Promise.all(
    PHOTOS.map((file) =>
      sharp(path.join(photosDir, file))
        .resize(Math.round(WIDTH * (1 + ZOOM)), Math.round(HEIGHT * (1 + ZOOM)), { fit: 'cover' })
        .toBuffer(),
    ),
  );
  const perPhoto = Math.round((HOLD_S + FADE_S) * FPS);
  const fadeFrames = Math.round(FADE_S * FPS);

  /** Photo i at progress t (0..1 of its time on screen): a centred crop that shrinks as t grows. */
  const still = (i, t) => {
    const scale = 1 + ZOOM - ZOOM * t;
    const w = Math.round(WIDTH * scale);
    const h = Math.round(HEIGHT * scale);
    const big = { w: Math.round(WIDTH * (1 + ZOOM)), h: Math.round(HEIGHT * (1 + ZOOM)) };
    return sharp(sources[i])
      .extract({ left: Math.round((big.w - w) / 2), top: Math.round((big.h - h) / 2), width: w, height: h })
      .resize(WIDTH, HEIGHT)
      .toBuffer();
  };

  let n = 0;
  for (let i = 0; i < PHOTOS.length; i += 1) {
    const next = (i + 1) % PHOTOS.length;
    for (let f = 0; f < perPhoto; f += 1) {
      const t = f / perPhoto;
      let frame = sharp(await still(i, t));
      const intoFade = f - (perPhoto - fadeFrames);
      if (intoFade >= 0) {
        // The next photo fades in over this one, starting where its own zoom starts.
        const alpha = (intoFade + 1) / fadeFrames;
        const overlay = await sharp(await still(next, 0)).ensureAlpha(alpha).png().toBuffer();
        frame = sharp(await frame.toBuffer()).composite([{ input: overlay }]);
      }
      n += 1;
      await frame.jpeg({ quality: 90 }).toFile(path.join(framesDir, `f${String(n).padStart(4, '0')}.jpg`));
    }
  }

  const input = ['-y', '-loglevel', 'error', '-framerate', String(FPS), '-i', path.join(framesDir, 'f%04d.jpg'), '-an'];
  execFileSync('ffmpeg', [...input, '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '42', '-row-mt', '1', '-pix_fmt', 'yuv420p', path.join(outDir, 'landing-loop.webm')]);
  execFileSync('ffmpeg', [...input, '-c:v', 'libx264', '-crf', '30', '-preset', 'slow', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', path.join(outDir, 'landing-loop.mp4')]);
  await sharp(path.join(framesDir, 'f0001.jpg')).jpeg({ quality: 72, mozjpeg: true }).toFile(path.join(outDir, 'landing-loop.jpg'));

  for (const file of ['landing-loop.webm', 'landing-loop.mp4', 'landing-loop.jpg']) {
    console.log(`${file}: ${(fs.statSync(path.join(outDir, file)).size / 1024).toFixed(0)} KB`);
  }
  console.log(`${n} frames, ${(n / FPS).toFixed(1)} s at ${FPS} fps, ${WIDTH}x${HEIGHT}`);
} finally {
  fs.rmSync(framesDir, { recursive: true, force: true });
}

// Compress a built frontend once, at build time: name.br (brotli 11) and name.gz (gzip 9) beside each file worth
// compressing, so the server sends them by Accept-Encoding instead of compressing per request
// (backend/src/platform/http/static.ts).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|wasm)$/;
/** Below this, the headers cost more than compression saves (the server's dynamic threshold too). */
const MIN_BYTES = 1024;

export function precompressDir(dir) {
  let files = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (COMPRESSIBLE.test(e.name)) {
        const raw = fs.readFileSync(p);
        if (raw.length < MIN_BYTES) continue;
        const br = zlib.brotliCompressSync(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: /\.(svg|wasm)$/.test(e.name) ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const gz = zlib.gzipSync(raw, { level: 9 });
        // A compressed copy that is not smaller is not worth sending.
        if (br.length < raw.length) fs.writeFileSync(`${p}.br`, br);
        if (gz.length < raw.length) fs.writeFileSync(`${p}.gz`, gz);
        files++;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return files;
}

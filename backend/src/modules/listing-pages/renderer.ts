import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../platform/config';

/** The SSR bundle's API (frontend-host/src/listing-page/entry-server.tsx). */
export interface ListingPageBundle {
  renderListingDocument(input: {
    page: unknown;
    origin: string;
    ogImage: string | null;
    assets: { script: string; preload: string[]; css: string };
  }): string;
  serializeForScript(value: unknown): string;
}

export interface ListingPageRenderer {
  bundle: ListingPageBundle;
  assets: { script: string; preload: string[]; css: string };
  /** Changes with every build: part of the pages' ETag. */
  version: string;
}

const HOST = path.join(REPO_ROOT, 'frontend-host');

/**
 * Loads the built page entry once: the server bundle (dist-ssr/entry-server.cjs) and, from the client
 * build's manifest, the entry script, the modules to preload and the CSS to inline.
 */
export function loadListingPageRenderer(hostDir: string = HOST): ListingPageRenderer {
  const manifestFile = path.join(hostDir, 'dist', '.vite', 'listing-manifest.json');
  const serverEntry = path.join(hostDir, 'dist-ssr', 'entry-server.cjs');
  if (!fs.existsSync(manifestFile) || !fs.existsSync(serverEntry)) {
    throw new Error('The listing pages are not built: run `node scripts/build.mjs`');
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>;
  const entry = Object.values(manifest).find((m) => m.isEntry);
  if (!entry) throw new Error('The listing page manifest has no entry');
  const preload = (entry.imports ?? []).map((key) => `/${manifest[key].file}`);
  const css = (entry.css ?? []).map((file) => fs.readFileSync(path.join(hostDir, 'dist', file), 'utf8')).join('\n');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS bundle built by Vite, loaded at run time
  const bundle = require(serverEntry) as ListingPageBundle;
  return { bundle, assets: { script: `/${entry.file}`, preload, css }, version: entry.file };
}

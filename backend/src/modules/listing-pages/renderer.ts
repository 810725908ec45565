import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../platform/config';

/**
 * The built page entry: the first script (small, run at load), the modules it imports at once, the page's
 * CSS (inlined) and the app it runs on the buyer's first interaction (fetched while idle after load).
 */
export interface ListingPageAssets {
  script: string;
  preload: string[];
  css: string;
  app: string[];
}

/** The SSR bundle's API (frontend-host/src/listing-page/entry-server.tsx). */
export interface ListingPageBundle {
  renderListingDocument(input: {
    page: unknown;
    origin: string;
    ogImage: string | null;
    assets: ListingPageAssets;
  }): string;
  serializeForScript(value: unknown): string;
}

export interface ListingPageRenderer {
  bundle: ListingPageBundle;
  assets: ListingPageAssets;
  /** Changes with every build: part of the pages' ETag. */
  version: string;
}

const HOST = path.join(REPO_ROOT, 'frontend-host');

/**
 * Loads the built page entry once: the server bundle (dist-ssr/entry-server.cjs) and, from the client
 * build's manifest, the entry script, the modules to preload, the CSS to inline and the app chunks that the
 * entry imports on the buyer's first interaction.
 */
export function loadListingPageRenderer(hostDir: string = HOST): ListingPageRenderer {
  const manifestFile = path.join(hostDir, 'dist', '.vite', 'listing-manifest.json');
  const serverEntry = path.join(hostDir, 'dist-ssr', 'entry-server.cjs');
  if (!fs.existsSync(manifestFile) || !fs.existsSync(serverEntry)) {
    throw new Error('The listing pages are not built: run `node scripts/build.mjs`');
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }>;
  const entry = Object.values(manifest).find((m) => m.isEntry);
  if (!entry) throw new Error('The listing page manifest has no entry');
  const preload = (entry.imports ?? []).map((key) => `/${manifest[key].file}`);
  // The lazily imported app and every chunk it imports, minus what the entry already loaded.
  const app = new Set<string>();
  const walk = (key: string) => {
    const file = `/${manifest[key].file}`;
    if (app.has(file) || preload.includes(file) || file === `/${entry.file}`) return;
    app.add(file);
    for (const k of manifest[key].imports ?? []) walk(k);
  };
  const cssFiles = new Set(entry.css ?? []);
  for (const key of entry.dynamicImports ?? []) walk(key);
  // The app's own CSS (its components' modules) is inlined too: nothing the server rendered waits for a stylesheet.
  for (const m of Object.values(manifest)) if (app.has(`/${m.file}`)) for (const file of m.css ?? []) cssFiles.add(file);
  const css = [...cssFiles].map((file) => fs.readFileSync(path.join(hostDir, 'dist', file), 'utf8')).join('\n');

  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS bundle built by Vite, loaded at run time
  const bundle = require(serverEntry) as ListingPageBundle;
  return { bundle, assets: { script: `/${entry.file}`, preload, css, app: [...app] }, version: entry.file };
}

// The landing page `/` as HTML at build time, hydrated in the browser (frontend-host/src/main.tsx):
//  - its markup, rendered by the same React components (vite SSR build of src/prerender.tsx);
//  - the CSS its first screen needs inlined (the shell's and the creation flow chunk's), so nothing blocks
//    the first paint;
//  - no script before the first paint but landing-boot.js, which fetches the chunks hydration needs (the
//    entry, the creation flow chunk and what it imports, the Module Federation runtime pieces the entry loads)
//    and runs the app on the visitor's first interaction (on desktop also once the page has loaded).
// dist/index.html becomes the landing page; the empty shell moves to dist/shell.html, which the server
// answers for every other client-side route (backend/src/platform/http/static.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function prerenderLanding(root) {
  const app = path.join(root, 'frontend-host');
  const dist = path.join(app, 'dist');
  const res = spawnSync('npx', ['vite', 'build', '-c', 'vite.prerender.config.ts', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('prerender build failed');
  const { prerender } = await import(pathToFileURL(path.join(app, 'dist-prerender', 'prerender.js')).href);
  const markup = await prerender('/');

  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entry = manifest['index.html'];
  const landing = Object.values(manifest).find((c) => c.src?.endsWith('features/creation-flow/CreationFlowPage.tsx'));
  if (!entry || !landing) throw new Error('manifest: entry or creation flow chunk missing');

  // Static imports, transitively: what each chunk needs before it runs.
  const chunksOf = (key, seen = new Set()) => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) chunksOf(k, seen);
    return seen;
  };
  const landingKey = Object.keys(manifest).find((k) => manifest[k] === landing);
  const entryChunks = chunksOf('index.html');
  // The federation runtime pieces the entry imports at run time (hostInit, the shared-module map…).
  const federation = (entry.dynamicImports ?? []).filter((k) => /federation|hostInit|__mf|localShared|virtual/i.test(k + (manifest[k]?.file ?? '')));
  const preload = new Set();
  for (const k of [...chunksOf(landingKey), ...federation.flatMap((f) => [...chunksOf(f)])]) if (!entryChunks.has(k)) preload.add(manifest[k].file);

  const cssFiles = [...new Set([...entryChunks, ...chunksOf(landingKey)].flatMap((k) => manifest[k].css ?? []))];
  const css = cssFiles.map((f) => fs.readFileSync(path.join(dist, f), 'utf8')).join('\n');

  // Run again on the same build, the shell is already beside the prerendered page.
  const shellFile = fs.existsSync(path.join(dist, 'shell.html')) ? 'shell.html' : 'index.html';
  const shell = fs.readFileSync(path.join(dist, shellFile), 'utf8');
  fs.writeFileSync(path.join(dist, 'shell.html'), shell);
  let html = shell;
  // The entry's stylesheet is inlined with the rest: drop its blocking <link>.
  for (const f of entry.css ?? []) html = html.replace(new RegExp(`<link rel="stylesheet"[^>]*href="/${f.replace(/[.]/g, '\\.')}"[^>]*>\\s*`), '');
  // Nothing runs before the first paint but landing-boot.js (frontend-host/src/landing/landing-boot.js: a
  // classic deferred script, as the CSP allows no inline script). It fetches the entry and the chunks hydration
  // needs, and runs the entry, on the visitor's first interaction (on desktop also once the page has loaded).
  const entryTag = /<script type="module" crossorigin src="(\/[^"]+)"><\/script>\s*/.exec(html);
  if (!entryTag) throw new Error('index.html: entry script not found');
  html = html.replace(entryTag[0], '');
  // The shell's own modulepreload links would download the app at load: they go to landing-boot.js's list too.
  html = html.replace(/<link rel="modulepreload" crossorigin href="\/([^"]+)">\s*/g, (_, file) => {
    preload.add(file);
    return '';
  });
  fs.copyFileSync(path.join(app, 'src', 'landing', 'landing-boot.js'), path.join(dist, 'landing-boot.js'));
  const attr = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const links = `<script src="/landing-boot.js" defer data-entry="${attr(entryTag[1])}" data-preload="${attr([...preload].map((f) => `/${f}`).join(' '))}"></script>`;
  html = html.replace('</head>', `  <style>${css}</style>\n    ${links}\n  </head>`);
  if (!html.includes('<div id="root"></div>')) throw new Error('index.html: empty root not found');
  html = html.replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
  fs.writeFileSync(path.join(dist, 'index.html'), html);
  return { bytes: html.length, preload: preload.size, css: cssFiles.length };
}

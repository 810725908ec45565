import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { federationShared } from '../contracts/src/remotes';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

const shared = federationShared(pkg.dependencies);

const backend = 'http://localhost:3000';

export default defineConfig({
  // Relative base: every URL the build emits (chunks, CSS, assets, preload deps) resolves
  // against the file that references it (import.meta.url), so the same dist/ works under
  // /remotes/dashboard/ of our backend, under any other path, and from another origin.
  // The federation plugin derives publicPath 'auto' from it. Standalone, src/standalone.ts
  // finds the deployed path at run time for the router's basename.
  base: './',
  plugins: [
    react(),
    federation({
      name: 'dashboard',
      filename: 'remoteEntry.js',
      exposes: {
        './App': './src/App.tsx',
      },
      shared,
      dts: false,
    }),
  ],
  resolve: {
    alias: [
      { find: /^@app\/contracts$/, replacement: fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)) },
      // The shared primitives and tokens (ui/): `@app/ui` is its index, `@app/ui/<file>` a file (tokens.css).
      { find: /^@app\/ui$/, replacement: fileURLToPath(new URL('../ui/src/index.ts', import.meta.url)) },
      { find: /^@app\/ui\/(.*)$/, replacement: fileURLToPath(new URL('../ui/src/', import.meta.url)) + '$1' },
    ],
  },
  server: {
    port: 5174,
    strictPort: true,
    proxy: {
      '/api': backend,
      '/objects': backend,
    },
  },
  preview: {
    port: 7174,
    proxy: {
      '/api': backend,
      '/objects': backend,
    },
  },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
  },
});

import { readFileSync } from 'node:fs';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { federationShared } from '../contracts/src/remotes';
import { workspaceAliases } from '../vite.aliases';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

const shared = federationShared(pkg.dependencies);

const backend = 'http://localhost:3000';

/**
 * Paths the backend serves. `changeOrigin: false` keeps the browser's Host header, so the backend's
 * same-origin (CSRF) check sees the Origin it expects and signed upload URLs point back at this
 * server (Vite's string shorthand would rewrite Host to the backend's and every POST would be a 403).
 */
const backendProxy = Object.fromEntries(
  ['/api', '/objects', '/remotes', '/demo-mls', '/listing/', '/manual-listing/', '/og/', '/listing-assets/'].map((path) => [path, { target: backend, changeOrigin: false }]),
);

export default defineConfig({
  base: '/',
  plugins: [
    react(),
    federation({
      name: 'host',
      // No build-time remotes: their entries come from GET /api/runtime-config and are
      // registered with the federation runtime in src/remotes/registry.ts.
      remotes: {},
      shared,
      dts: false,
    }),
  ],
  resolve: {
    // @app/contracts, @app/contracts/rules, @app/contracts/api-client, @app/ui, @app/ui/tokens.css…: the packages' exports, at their sources.
    alias: workspaceAliases(),
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: backendProxy,
  },
  preview: {
    port: 4173,
    proxy: backendProxy,
  },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // Read by scripts/prerender-landing.mjs: which CSS to inline and which chunks to preload for `/`.
    manifest: true,
  },
});
